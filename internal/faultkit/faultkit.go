// Package faultkit is how a fault value crosses packages: mcptest plays
// faults, the catalogs build them (mcptest/fault, mcptest/oauth), and
// config reads them. A fault is data: the constructor that made it, its
// arguments and its trigger. mcptest.Fault is defined on Fault, so the
// catalogs convert a Fault to an mcptest.Fault without mcptest exporting
// anything for it, and mcptest converts back to read the Spec.
package faultkit

// Spec is what a fault is.
type Spec struct {
	// Op names the constructor of mcptest's engine that plays the fault
	// ("Hang" for fault.Hang), called with Args; "" for a fault an
	// extension plays (Ext).
	Op   string
	Args []any

	// Ext is the action of a fault an extension plays (package oauth's):
	// mcptest installs it, counts it and reports it, and hands it to the
	// extension. Name, Method and Err describe such a fault; for an Op
	// fault mcptest's constructor says them.
	Ext    any
	Name   string
	Method string
	Err    error
	// Pkg names the package of the constructor as Go code names it
	// ("oauth"); "" is package fault.
	Pkg string

	// The trigger, set by mcptest.Fault's Nth, InSession, WithProbability
	// and Optional.
	Nth      int     // act on the nth matching message only (from 1); 0 for every one
	Session  int     // act in this session only (from 1); 0 for any
	Prob     float64 // act with this probability; 0 for always
	Optional bool    // it may never act without failing the test
	// Refine is why a refinement could not take its argument (Nth(0)):
	// installing the fault fails the test with it.
	Refine error
}

// Fault is a fault value; the zero Fault holds no Spec.
type Fault struct{ s *Spec }

// Make returns the fault s describes.
func Make(s Spec) Fault { return Fault{&s} }

// Spec returns what f is, nil for the zero Fault. The caller must not
// change it: a Fault is immutable, and refinements copy the Spec.
func (f Fault) Spec() *Spec { return f.s }
