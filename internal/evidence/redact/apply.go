package redact

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"time"
)

// Apply redacts a value by way of its JSON form and decodes it back into
// dst. Only string values change: never keys, numbers (kept digit for digit)
// or booleans, so the record keeps its shape whatever the secrets are. The
// times of the record itself (src's time.Time fields) are left as they are:
// they are the run's, not anyone's data, and must read back as times.
func (r *Redaction) Apply(src, dst any) error {
	b, err := json.Marshal(src)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return err
	}
	b, err = json.Marshal(r.values(doc, timesOf(reflect.TypeOf(src), map[reflect.Type]bool{})))
	if err != nil {
		return err
	}
	return json.Unmarshal(b, dst)
}

// values redacts every string value of a decoded JSON document but the
// times that t places in it.
func (r *Redaction) values(v any, t *times) any {
	if t != nil && t.here {
		return v
	}
	switch v := v.(type) {
	case string:
		return r.String(v)
	case []any:
		for i := range v {
			v[i] = r.values(v[i], t.elem())
		}
	case map[string]any:
		for k := range v {
			v[k] = r.values(v[k], t.field(k))
		}
	}
	return v
}

// times tells where a type's JSON form holds a time.Time: here, in one of
// its fields (a struct's), or in each of its elements (a slice's, an array's
// or a map's). Nil where there is none.
type times struct {
	here   bool
	fields map[string]*times
	each   *times
}

func (t *times) elem() *times {
	if t == nil {
		return nil
	}
	return t.each
}

func (t *times) field(name string) *times {
	if t == nil {
		return nil
	}
	if t.fields != nil {
		return t.fields[name]
	}
	return t.each
}

var timeType = reflect.TypeFor[time.Time]()

func timesOf(t reflect.Type, seen map[reflect.Type]bool) *times {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || seen[t] {
		return nil
	}
	if t == timeType {
		return &times{here: true}
	}
	seen[t] = true
	defer delete(seen, t)
	switch t.Kind() {
	case reflect.Slice, reflect.Array, reflect.Map:
		if e := timesOf(t.Elem(), seen); e != nil {
			return &times{each: e}
		}
	case reflect.Struct:
		out := &times{fields: map[string]*times{}}
		addFields(out, t, seen)
		if len(out.fields) > 0 {
			return out
		}
	}
	return nil
}

// addFields adds the time-holding fields of struct type t under their JSON
// names, those of an untagged embedded struct as its own.
func addFields(out *times, t reflect.Type, seen map[reflect.Type]bool) {
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-" || !f.IsExported() && !f.Anonymous:
			continue
		case f.Anonymous && name == "" && (f.Type.Kind() == reflect.Struct || f.Type.Kind() == reflect.Pointer && f.Type.Elem().Kind() == reflect.Struct) && f.Type != timeType:
			et := f.Type
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			addFields(out, et, seen)
			continue
		case name == "":
			name = f.Name
		}
		if ft := timesOf(f.Type, seen); ft != nil {
			out.fields[name] = ft
		}
	}
}

// walkStrings calls fn with every string of a decoded JSON value, keys too.
func walkStrings(v any, fn func(string)) {
	switch v := v.(type) {
	case string:
		fn(v)
	case []any:
		for _, x := range v {
			walkStrings(x, fn)
		}
	case map[string]any:
		for k, x := range v {
			fn(k)
			walkStrings(x, fn)
		}
	}
}
