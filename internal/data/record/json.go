package record

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
)

// Normalize answers what JSON makes of v, so that values from YAML (ints,
// map[string]any) and from JSON (float64, raw documents) compare alike. A
// json.RawMessage is read as the document it holds. A value JSON cannot
// represent is answered as it is.
func Normalize(v any) any {
	raw, ok := v.(json.RawMessage)
	if !ok {
		b, err := json.Marshal(v)
		if err != nil {
			return v
		}
		raw = b
	}
	var out any
	if err := json.Unmarshal(raw, &out); err != nil {
		return v
	}
	return out
}

// JSONEqual is the one rule for "the same JSON value": key order, spacing
// and the spelling of numbers do not count.
func JSONEqual(a, b any) bool { return reflect.DeepEqual(Normalize(a), Normalize(b)) }

// DecodeOne reads data as exactly one JSON value into v: anything after
// it but white space (a second value, a stray bracket) is an error, so
// that a file cut or glued by mistake is refused, not half read.
func DecodeOne(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("more than one JSON value")
	}
	return nil
}
