//go:build linux

package appserver

import "syscall"

// sysProcAttr puts the app in a process group of its own, and asks the
// kernel to kill its leader if the suite dies without stopping it (a
// SIGKILL of agentready gives no chance to run Stop).
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
