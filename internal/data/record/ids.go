package record

import "strings"

// IDName tells whether a field's name says it holds an object's id: id,
// eventId, event_id, event-id, eventID. The one rule for the replays that
// drop or swap an id and for the coverage that names a write's template.
func IDName(name string) bool {
	l := strings.ToLower(name)
	return l == "id" || strings.HasSuffix(name, "Id") || strings.HasSuffix(name, "ID") || strings.HasSuffix(l, "_id") || strings.HasSuffix(l, "-id")
}

// PathOnly is a request's path without its query: what a write's template
// and a replay's target are made of.
func PathOnly(p string) string {
	path, _, _ := strings.Cut(p, "?")
	return path
}
