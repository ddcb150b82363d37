// Command fakeapp is the app of appserver's tests: a tiny HTTP server on
// $PORT (or -addr) whose misbehaviours are flags.
package main

import (
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"
)

func main() {
	exit := flag.Int("exit", -1, "print two lines and exit with this status before listening")
	never := flag.Bool("never", false, "run, print, and never listen")
	status := flag.Int("status", 200, "the status / answers with")
	ignoreTerm := flag.Bool("ignore-term", false, "ignore SIGTERM")
	child := flag.Bool("child", false, "start a child process in the same group that outlives a SIGTERM of this one")
	addr := flag.String("addr", "", "listen here instead of 127.0.0.1:$PORT")
	flag.Parse()
	fmt.Printf("fakeapp starting pid=%d, PORT=%s GREETING=%s args=%v\n", os.Getpid(), os.Getenv("PORT"), os.Getenv("GREETING"), flag.Args())
	if *ignoreTerm {
		signal.Ignore(syscall.SIGTERM)
	}
	if *child {
		// A grandchild that ignores SIGTERM: only a SIGKILL of the group ends it.
		c := exec.Command(os.Args[0], "-never", "-ignore-term")
		c.Stdout, c.Stderr = os.Stdout, os.Stderr
		if err := c.Start(); err != nil {
			fmt.Println("child:", err)
			os.Exit(1)
		}
		fmt.Printf("child %d\n", c.Process.Pid)
	}
	if *exit >= 0 {
		fmt.Fprintln(os.Stderr, "fakeapp: cannot open the database")
		os.Exit(*exit)
	}
	if *never {
		select {}
	}
	a := *addr
	if a == "" {
		a = "127.0.0.1:" + os.Getenv("PORT")
	}
	var hits atomic.Int64
	http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if *status != 200 {
			w.WriteHeader(*status)
			return
		}
		fmt.Fprintf(w, "hits=%d greeting=%s\n", hits.Add(1), os.Getenv("GREETING"))
	})
	fmt.Println("fakeapp listening at", a, "at", strconv.FormatInt(time.Now().Unix(), 10))
	if err := http.ListenAndServe(a, nil); err != nil {
		fmt.Fprintln(os.Stderr, "fakeapp:", err)
		os.Exit(1)
	}
}
