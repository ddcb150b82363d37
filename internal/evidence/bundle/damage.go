package bundle

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// DamageError says which file of a bundle cannot be read as what it stands
// for, and where in it: a bundle is input like any other, and a reader
// that trusted it would judge what was never recorded, or panic.
type DamageError struct {
	File  string // the bundle's file
	Field string // where in the file ("calls[0].index"); "" for the file as a whole
	Err   error
}

func (e *DamageError) Error() string { return e.File + ": " + e.Problem() }
func (e *DamageError) Unwrap() error { return e.Err }

// Problem is the error without the file's name.
func (e *DamageError) Problem() string {
	if e.Field == "" {
		return e.Err.Error()
	}
	return e.Field + ": " + e.Err.Error()
}

func damage(file, field, format string, args ...any) *DamageError {
	return &DamageError{File: file, Field: field, Err: fmt.Errorf(format, args...)}
}

// decodeFile decodes one of a bundle's JSON files into dst. A file that is
// required and missing, that holds null where a record is due, that is no
// JSON or has a value of the wrong type somewhere is a *DamageError naming
// the file and, where the decoder says, the field.
func decodeFile(files map[string][]byte, name string, dst any, required bool) error {
	data, ok := files[name]
	if !ok {
		if required {
			return damage(name, "", "missing")
		}
		return nil
	}
	// The writer spells an empty list or map null; a record (a struct:
	// the manifest, scenario.json, run.json, catalog.json) is never null.
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) && reflect.TypeOf(dst).Elem().Kind() == reflect.Struct {
		return damage(name, "", "holds null, not the record it stands for")
	}
	if err := json.Unmarshal(data, dst); err != nil {
		var typeErr *json.UnmarshalTypeError
		var syntaxErr *json.SyntaxError
		switch {
		case errors.As(err, &typeErr):
			return damage(name, typeErr.Field, "a JSON %s where %s is due", typeErr.Value, typeErr.Type)
		case errors.As(err, &syntaxErr):
			return damage(name, "", "not JSON at byte %d: %v", syntaxErr.Offset, err)
		default:
			return &DamageError{File: name, Err: err}
		}
	}
	return nil
}

// unjoin answers the errors an errors.Join holds, or err alone.
func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, unjoin(e)...)
		}
		return out
	}
	return []error{err}
}

func dotted(field string) string {
	if field == "" {
		return ""
	}
	return "." + field
}

// fileOf names the file of the bundle that holds a field of the Evidence.
func fileOf(field string) string {
	for prefix, file := range map[string]string{"states": StateFile, "ui": UIFile, "trace": TraceFile, "requests": RequestsFile, "journal": JournalFile, "catalog": CatalogFile} {
		if field == prefix || strings.HasPrefix(field, prefix+".") || strings.HasPrefix(field, prefix+"[") {
			return file
		}
	}
	return RunFile
}
