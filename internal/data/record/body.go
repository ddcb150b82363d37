package record

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"mime"
	"mime/multipart"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
)

// Header answers a request header by name, in any case.
func (r Request) Header(name string) (string, bool) {
	for _, k := range slices.Sorted(maps.Keys(r.RequestHeaders)) {
		if strings.EqualFold(k, name) {
			return r.RequestHeaders[k], true
		}
	}
	return "", false
}

// The ways a request's body is not a document.
var (
	// ErrNoBody: the request carried no body at all.
	ErrNoBody = errors.New("the request carried no body")
	// ErrBodyLost: the request had a body, and the browser no longer held
	// it when it was read (a large or streamed upload): what it carried is
	// unknown, not empty.
	ErrBodyLost = errors.New("the request had a body, and the browser no longer held it: it was not recorded")
)

// BodyDocument reads what the request carried as one document, by its
// Content-Type header: JSON (application/json, application/*+json, or no
// type and a body that parses as JSON) as that value, numbers kept as
// their JSON text (json.Number); form data
// (application/x-www-form-urlencoded, multipart/form-data) as an object of
// strings, a name given more than once as a list of its values in order,
// and a file part of a multipart body as {"filename": …}. Any other type,
// or a body that does not parse as its type says, is an error that says
// why; a body the log lacks is ErrNoBody or ErrBodyLost.
func (r Request) BodyDocument() (any, error) {
	if r.Body == "" {
		if r.HasBody {
			return nil, ErrBodyLost
		}
		return nil, ErrNoBody
	}
	ct, _ := r.Header("Content-Type")
	return ParseBody(ct, r.Body)
}

// ParseBody reads a body of a Content-Type as a document; see
// Request.BodyDocument.
func ParseBody(contentType, body string) (any, error) {
	if strings.TrimSpace(contentType) == "" {
		v, err := parseJSON(body)
		if err != nil {
			return nil, fmt.Errorf("the body has no Content-Type and is not JSON: %w", err)
		}
		return v, nil
	}
	mediaType, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		return nil, fmt.Errorf("the Content-Type %q does not parse: %w", contentType, err)
	}
	switch {
	case mediaType == "application/json" || strings.HasPrefix(mediaType, "application/") && strings.HasSuffix(mediaType, "+json"):
		v, err := parseJSON(body)
		if err != nil {
			return nil, fmt.Errorf("the body is %s and not JSON: %w", mediaType, err)
		}
		return v, nil
	case mediaType == "application/x-www-form-urlencoded":
		return parseURLEncoded(body)
	case mediaType == "multipart/form-data":
		return parseMultipart(body, params["boundary"])
	case mediaType == "text/plain":
		// fetch(url, {body: JSON.stringify(x)}) without a header sends
		// text/plain;charset=UTF-8; a server reading JSON reads it as JSON.
		if v, err := parseJSON(body); err == nil {
			return v, nil
		}
		return nil, errors.New("the body is text/plain and not JSON, which is read as no document (JSON, form data)")
	}
	return nil, fmt.Errorf("the body is %s, which is read as no document (JSON, form data)", mediaType)
}

// IsFormData tells whether a Content-Type is a form's: its body's keys are
// the controls' names as written (user[email] is one key).
func IsFormData(contentType string) bool {
	mediaType, _, err := mime.ParseMediaType(contentType)
	return err == nil && (mediaType == "application/x-www-form-urlencoded" || mediaType == "multipart/form-data")
}

func parseJSON(body string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("more follows the first JSON value")
	}
	if err := noDuplicateKeys(body); err != nil {
		return nil, err
	}
	return v, nil
}

// noDuplicateKeys refuses an object that names a key twice: servers differ
// on which one counts (Go's encoding/json and JSON.parse take the last,
// others the first), so such a body says two things and is judged as
// neither.
func noDuplicateKeys(body string) error {
	dec := json.NewDecoder(strings.NewReader(body))
	dec.UseNumber()
	type level struct {
		object bool
		keys   map[string]bool
		key    bool // the next string token is a key
	}
	var stack []*level
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		var top *level
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				if top != nil && top.object {
					top.key = true // the value is done once it closes
				}
				stack = append(stack, &level{object: t == '{', keys: map[string]bool{}, key: t == '{'})
			default:
				stack = stack[:len(stack)-1]
			}
			continue
		case string:
			if top != nil && top.object && top.key {
				if top.keys[t] {
					return fmt.Errorf("the key %q appears twice in one object", t)
				}
				top.keys[t] = true
				top.key = false
				continue
			}
		}
		if top != nil && top.object {
			top.key = true
		}
	}
}

// formObject gathers form entries in order: one value is a string (or a
// file's object), several are a list.
type formObject struct {
	names  []string
	values map[string][]any
}

func (f *formObject) add(name string, v any) {
	if f.values == nil {
		f.values = map[string][]any{}
	}
	if _, ok := f.values[name]; !ok {
		f.names = append(f.names, name)
	}
	f.values[name] = append(f.values[name], v)
}

func (f *formObject) doc() map[string]any {
	out := make(map[string]any, len(f.names))
	for _, n := range f.names {
		if vs := f.values[n]; len(vs) == 1 {
			out[n] = vs[0]
		} else {
			out[n] = vs
		}
	}
	return out
}

func parseURLEncoded(body string) (any, error) {
	var f formObject
	for _, pair := range strings.Split(body, "&") {
		if pair == "" {
			continue
		}
		k, v, _ := strings.Cut(pair, "=")
		name, err1 := url.QueryUnescape(k)
		value, err2 := url.QueryUnescape(v)
		if err := errors.Join(err1, err2); err != nil {
			return nil, fmt.Errorf("the form body does not parse: %w", err)
		}
		f.add(name, value)
	}
	return f.doc(), nil
}

func parseMultipart(body, boundary string) (any, error) {
	if boundary == "" {
		return nil, errors.New("the multipart body's Content-Type has no boundary")
	}
	mr := multipart.NewReader(bytes.NewReader([]byte(body)), boundary)
	var f formObject
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("the multipart body does not parse: %w", err)
		}
		name := part.FormName()
		// A file part, even one with no file chosen (filename=""), is
		// {filename: …}: Part.FileName cannot tell that from a text part.
		if _, params, err := mime.ParseMediaType(part.Header.Get("Content-Disposition")); err == nil {
			if file, ok := params["filename"]; ok {
				if file != "" {
					file = filepath.Base(file) // as Part.FileName: never a path
				}
				f.add(name, map[string]any{"filename": file})
				continue
			}
		}
		b, err := io.ReadAll(part)
		if err != nil {
			return nil, fmt.Errorf("the multipart body does not parse: part %q: %w", name, err)
		}
		f.add(name, string(b))
	}
	return f.doc(), nil
}
