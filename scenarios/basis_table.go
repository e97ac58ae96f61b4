package scenarios

// bases is the Basis of every scenario of the catalog, by name: the
// requirement on the client it checks, quoted from the spec, or the
// sentence a robustness scenario's server breaks.
func bases() map[string]Basis {
	return map[string]Basis{}
}
