//go:build !linux

package appserver

// heldBefore cannot tell who listens on a port here: the app's answers are
// taken as its own, as before.
func heldBefore(host string, port, pid int) (int, bool) { return 0, false }
