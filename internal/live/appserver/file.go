package appserver

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v4"
)

// fileKeys are the keys of a folder file's app, in the order the README
// gives them.
var fileKeys = []string{"command", "env", "dir", "url", "timeout", "fresh"}

// LoadFile reads the app of a folder file (scenarios' agentready.yaml):
//
//	app:
//	  command: [go, run, ./cmd/agentready, serve, --app, plain, --addr, "127.0.0.1:{port}"]
//	  dir: ../../..            # from this file's folder
//	  url: http://127.0.0.1:{port}/menu
//	  env: {LOG_LEVEL: debug}
//	  timeout: 60s
//	  fresh: scenario          # or run
//
// A file without app answers nil. Every problem is named by the file, the
// line and column and the key; nothing is started then.
func LoadFile(path string) (*Spec, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	root := doc.Content[0]
	at := func(n *yaml.Node, format string, args ...any) error {
		return fmt.Errorf("%s:%d:%d: %s", path, n.Line, n.Column, fmt.Sprintf(format, args...))
	}
	if root.Kind != yaml.MappingNode {
		return nil, at(root, "a folder file is a mapping with the keys app and signin")
	}
	var app *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		switch k := root.Content[i]; k.Value {
		case "app":
			app = root.Content[i+1]
		case "signin":
			// The folder's sign-in: package scenarios reads it.
		default:
			return nil, at(k, "unknown key %q (a folder file has app and signin)", k.Value)
		}
	}
	if app == nil {
		return nil, nil
	}
	if app.Kind != yaml.MappingNode {
		return nil, at(app, "app is a mapping of %s", strings.Join(fileKeys, ", "))
	}
	spec := &Spec{From: path, Fresh: PerScenario, Dir: filepath.Dir(path)}
	var errs []error
	var command *yaml.Node
	for i := 0; i+1 < len(app.Content); i += 2 {
		k, v := app.Content[i], app.Content[i+1]
		switch k.Value {
		case "command":
			command = k
			if err := v.Decode(&spec.Command); err != nil || v.Kind != yaml.SequenceNode {
				errs = append(errs, at(v, "app.command is a list: the program, then its arguments (no shell; [sh, -c, \"…\"] for one)"))
			} else if len(spec.Command) == 0 || spec.Command[0] == "" {
				errs = append(errs, at(v, "app.command names no program"))
			}
		case "env":
			if err := v.Decode(&spec.Env); err != nil || v.Kind != yaml.MappingNode {
				errs = append(errs, at(v, "app.env is a mapping of names to strings"))
			}
		case "dir":
			if v.Kind != yaml.ScalarNode || v.Value == "" {
				errs = append(errs, at(v, "app.dir is a folder, relative to this file's"))
			} else if filepath.IsAbs(v.Value) {
				spec.Dir = v.Value
			} else {
				spec.Dir = filepath.Join(filepath.Dir(path), v.Value)
			}
		case "url":
			spec.URL = v.Value
			if v.Kind != yaml.ScalarNode || !(strings.HasPrefix(v.Value, "http://") || strings.HasPrefix(v.Value, "https://")) {
				errs = append(errs, at(v, "app.url is the http(s) URL that answers when the app is up, such as http://127.0.0.1:{port}/"))
			}
		case "timeout":
			d, err := time.ParseDuration(v.Value)
			if err != nil || d <= 0 || v.Kind != yaml.ScalarNode {
				errs = append(errs, at(v, "app.timeout is a positive duration such as 60s, not %q", v.Value))
			}
			spec.Timeout = d
		case "fresh":
			spec.Fresh = Fresh(v.Value)
			if spec.Fresh != PerScenario && spec.Fresh != PerRun {
				errs = append(errs, at(v, "app.fresh is scenario (a new app for each scenario) or run (one for the run), not %q", v.Value))
			}
		default:
			errs = append(errs, at(k, "unknown key app.%s%s (app has %s)", k.Value, nearest(k.Value), strings.Join(fileKeys, ", ")))
		}
	}
	if command == nil {
		errs = append(errs, at(app, "app needs command: the program that starts your app, then its arguments"))
	}
	if st, err := os.Stat(spec.Dir); err != nil || !st.IsDir() {
		errs = append(errs, fmt.Errorf("%s: app.dir %s is not a folder", path, spec.Dir))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return spec, nil
}

// nearest suggests the key a typo meant (one edit away, or a prefix).
func nearest(key string) string {
	i := slices.IndexFunc(fileKeys, func(k string) bool {
		return strings.HasPrefix(k, key) || strings.HasPrefix(key, k) || oneEdit(k, key)
	})
	if i < 0 {
		return ""
	}
	return fmt.Sprintf(": did you mean %s?", fileKeys[i])
}

func oneEdit(a, b string) bool {
	if a == b {
		return true
	}
	if len(a) < len(b) {
		a, b = b, a
	}
	if len(a)-len(b) > 1 {
		return false
	}
	i := 0
	for i < len(b) && a[i] == b[i] {
		i++
	}
	if len(a) == len(b) {
		return a[i+1:] == b[i+1:] || (i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:])
	}
	return a[i+1:] == b[i:]
}
