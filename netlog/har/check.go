package har

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// CheckHAR checks that a HAR document has every field HAR 1.2 requires, with
// the right JSON types: what an importer such as Chrome DevTools relies on.
func CheckHAR(raw []byte) error {
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return fmt.Errorf("HAR: not JSON: %w", err)
	}
	var errs []error
	need := func(obj map[string]any, where string, fields map[string]string) {
		for name, typ := range fields {
			v, ok := obj[name]
			if !ok {
				errs = append(errs, fmt.Errorf("HAR: %s.%s is missing", where, name))
				continue
			}
			if !hasType(v, typ) {
				errs = append(errs, fmt.Errorf("HAR: %s.%s is %T, want %s", where, name, v, typ))
			}
		}
	}
	log, _ := doc["log"].(map[string]any)
	if log == nil {
		return errors.New("HAR: log is missing")
	}
	need(log, "log", map[string]string{"version": "string", "creator": "object", "entries": "array"})
	if c, ok := log["creator"].(map[string]any); ok {
		need(c, "log.creator", map[string]string{"name": "string", "version": "string"})
	}
	entries, _ := log["entries"].([]any)
	for i, raw := range entries {
		e, _ := raw.(map[string]any)
		where := fmt.Sprintf("log.entries[%d]", i)
		if e == nil {
			errs = append(errs, fmt.Errorf("HAR: %s is not an object", where))
			continue
		}
		need(e, where, map[string]string{"startedDateTime": "string", "time": "number", "request": "object", "response": "object", "cache": "object", "timings": "object"})
		if s, ok := e["startedDateTime"].(string); ok {
			if _, err := time.Parse(time.RFC3339Nano, s); err != nil {
				errs = append(errs, fmt.Errorf("HAR: %s.startedDateTime %q is not ISO 8601", where, s))
			}
		}
		if req, ok := e["request"].(map[string]any); ok {
			need(req, where+".request", map[string]string{"method": "string", "url": "string", "httpVersion": "string", "cookies": "array", "headers": "array", "queryString": "array", "headersSize": "number", "bodySize": "number"})
			if pd, ok := req["postData"].(map[string]any); ok {
				need(pd, where+".request.postData", map[string]string{"mimeType": "string", "text": "string"})
			}
		}
		if res, ok := e["response"].(map[string]any); ok {
			need(res, where+".response", map[string]string{"status": "number", "statusText": "string", "httpVersion": "string", "cookies": "array", "headers": "array", "content": "object", "redirectURL": "string", "headersSize": "number", "bodySize": "number"})
			if c, ok := res["content"].(map[string]any); ok {
				need(c, where+".response.content", map[string]string{"size": "number", "mimeType": "string"})
			}
		}
		if t, ok := e["timings"].(map[string]any); ok {
			need(t, where+".timings", map[string]string{"send": "number", "wait": "number", "receive": "number"})
		}
	}
	return errors.Join(errs...)
}

func hasType(v any, typ string) bool {
	switch typ {
	case "string":
		_, ok := v.(string)
		return ok
	case "number":
		_, ok := v.(float64)
		return ok
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	}
	return false
}
