//go:build unix

package appserver

import "syscall"

// killGroup signals the app's whole process group (the app runs in its
// own, so `go run`, `npm start` and `sh -c` take their children with them).
func killGroup(pid int, kill bool) error {
	sig := syscall.SIGTERM
	if kill {
		sig = syscall.SIGKILL
	}
	return syscall.Kill(-pid, sig)
}
