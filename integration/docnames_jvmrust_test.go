package integration_test

// Words of the docs and doc comments about the Java and Rust clients and the
// bug catalog's proofs that look like Go names but are not the library's.
func init() {
	notAPI["PyPI"] = true // the Python package index, which Proof.Release's doc names
}
