package play

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/agentready/agentready/internal/live/appserver"
	"github.com/agentready/agentready/scenarios"
)

// Launch is the app a scenario folder's agentready.yaml starts (package
// appserver): afresh for each scenario, or once for the run (Spec.Fresh),
// and afresh for a scenario that adds arguments or environment of its own.
type Launch struct {
	Spec appserver.Spec

	mu     sync.Mutex
	shared *appserver.Server
}

// FolderLaunch reads dir's agentready.yaml: nil, nil when the folder has
// none or it names no app.
func FolderLaunch(dir string) (*Launch, error) {
	path := filepath.Join(dir, scenarios.FolderFile)
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	spec, err := appserver.LoadFile(path)
	if err != nil || spec == nil {
		return nil, err
	}
	return &Launch{Spec: *spec}, nil
}

// Open starts the run's shared app when the file asks for one app per
// run: a start that fails then stops the run before any scenario.
func (l *Launch) Open(ctx context.Context) error {
	if l == nil || l.Spec.Fresh != appserver.PerRun {
		return nil
	}
	_, err := l.sharedServer(ctx)
	return err
}

func (l *Launch) sharedServer(ctx context.Context) (*appserver.Server, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.shared != nil {
		return l.shared, nil
	}
	s, err := appserver.Start(ctx, l.Spec, appserver.Extra{})
	if err != nil {
		return nil, err
	}
	l.shared = s
	return s, nil
}

// For gives a scenario its app: the run's shared one, or one started for
// it alone (stop ends that one; it does nothing for the shared app).
func (l *Launch) For(ctx context.Context, sc scenarios.Scenario) (s *appserver.Server, stop func() error, err error) {
	var extra appserver.Extra
	if sc.App != nil {
		extra = appserver.Extra{Args: sc.App.Args, Env: sc.App.Env}
	}
	if l.Spec.Fresh == appserver.PerRun && extra.Empty() {
		s, err := l.sharedServer(ctx)
		if err != nil {
			return nil, nil, err
		}
		if exited, how := s.Exited(); exited {
			return nil, nil, fmt.Errorf("the run's app `%s` (%s) has ended (%s) before scenario %s", s.Line, l.Spec.From, how, sc.ID)
		}
		return s, func() error { return nil }, nil
	}
	s, err = appserver.Start(ctx, l.Spec, extra)
	if err != nil {
		return nil, nil, err
	}
	return s, s.Stop, nil
}

// Shares tells whether s is the run's shared app (its output before a
// scenario is another scenario's).
func (l *Launch) Shares(s *appserver.Server) bool {
	if l == nil {
		return false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.shared == s
}

// Close stops the run's shared app, if one was started.
func (l *Launch) Close() error {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.shared == nil {
		return nil
	}
	err := l.shared.Stop()
	l.shared = nil
	return err
}
