# The mcpmock command as a static image FROM scratch, for the CI of clients
# in any language: nothing to install but Docker (docs/distribution.md).
#
#   docker build -t mcpmock .
#   docker run --rm mcpmock list
#
# The image holds /mcpmock and the CA certificates (for `mcpmock record
# --url https://…`); copy the binary into a client's image with
# `COPY --from=mcpmock /mcpmock /usr/local/bin/mcpmock`. The builder runs on
# the build machine's platform and cross-compiles for the target's
# (docker buildx build --platform linux/arm64 …). The Go image is pinned by
# tag and digest: to move it, take the new digest from
# `docker buildx imagetools inspect golang:TAG`.
# integration/dist_test.go runs this file's RUN commands with its ENV and
# checks the binary they build is static and runs.

FROM --platform=$BUILDPLATFORM golang:1.26.8-bookworm@sha256:dc9ad6c05acc7a88e5b71bde60a5fe3bd4b9f0db209011711b464107438a8107 AS build
ARG TARGETOS
ARG TARGETARCH
# No cgo: the binary needs no C library, so it runs FROM scratch. The
# library module alone (the workspace's SDK suites are not copied).
ENV CGO_ENABLED=0 GOWORK=off GOFLAGS=-mod=readonly
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN GOOS=$TARGETOS GOARCH=$TARGETARCH go build -trimpath -buildvcs=false -ldflags="-s -w" -o /out/mcpmock ./cmd/mcpmock

FROM scratch
COPY --from=build /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
COPY --from=build /out/mcpmock /mcpmock
# Not root: scratch has no /etc/passwd, so a number (nobody's, as distroless
# "nonroot" uses).
USER 65532:65532
ENTRYPOINT ["/mcpmock"]
