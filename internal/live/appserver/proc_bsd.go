//go:build unix && !linux

package appserver

import "syscall"

// sysProcAttr puts the app in a process group of its own.
func sysProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
