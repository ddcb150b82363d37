package redact

import (
	"bytes"
	"encoding/json"
	"io"
	"mime"
	"mime/multipart"
	"net/url"
	"strings"
	"unicode"
)

// Values are also personal by the name they are given: a credential (a
// password, a token, a key, a CSRF token, a session id, a one-time code) or
// an account number, whatever it looks like. The names are read wherever a
// value is named: headers, cookies, query parameters, the fields of JSON,
// form and multipart bodies, tool inputs, a form's controls at a review, and
// the selectors a person's fill steps type into.

// credentialParts of a name, joined without separators ("x-api-key" is
// "xapikey"): a name that holds one is a credential's.
var credentialParts = []string{
	"password", "passwd", "passcode", "passphrase", "secret", "token", "csrf", "xsrf",
	"apikey", "accesskey", "privatekey", "sessionid", "cookie", "authorization", "credential",
}

// credentialWords are words a name must hold whole ("pin" in "pinCode", not
// in "shipping"; "auth" in "x-auth", not in "author").
var credentialWords = []string{"pwd", "pass", "pin", "otp", "cvc", "cvv", "sid", "auth", "jwt", "sig"}

// accountWords name a person's account or identity numbers, which have no
// shape of their own to find them by.
var accountWords = []string{"ssn", "passport", "iban", "accountnumber", "taxid", "nationalid"}

// nameKind tells what a value named name is: Credential, Account, or "" (the
// name says nothing).
func nameKind(name string) Kind {
	words := nameWords(name)
	joined := strings.Join(words, "")
	for _, p := range credentialParts {
		if strings.Contains(joined, p) {
			return Credential
		}
	}
	for _, w := range words {
		for _, c := range credentialWords {
			if w == c {
				return Credential
			}
		}
	}
	for _, a := range accountWords {
		if strings.Contains(joined, a) {
			return Account
		}
	}
	return ""
}

// nameWords splits a name into lower-case words at every character that is
// no letter or digit and where camelCase changes case: "X-CSRF-Token",
// "csrfToken", "user[password]", "#new-pin".
func nameWords(name string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(name)
	for i, r := range rs {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && i > 0 && unicode.IsLower(rs[i-1]):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	return words
}

// headerSecrets splits a credential header into the values to hide: each
// cookie's value, or the credential of the others; never a cookie's name or
// attributes.
func headerSecrets(name, value string) []string {
	var out []string
	keep := func(v string) {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	switch strings.ToLower(name) {
	case "cookie":
		for _, c := range strings.Split(value, ";") {
			if _, v, ok := strings.Cut(c, "="); ok {
				keep(v)
			}
		}
	case "set-cookie":
		for _, line := range strings.Split(value, "\n") {
			first, _, _ := strings.Cut(line, ";") // what follows are attributes, not secrets
			if _, v, ok := strings.Cut(first, "="); ok {
				keep(v)
			}
		}
	case "authorization", "proxy-authorization":
		if _, cred, ok := strings.Cut(value, " "); ok {
			keep(cred)
		}
		keep(value)
	default:
		keep(value)
	}
	return out
}

// namedValue is one value and the name it was given.
type namedValue struct{ name, value string }

// urlValues are the named values of a URL: its query's and its fragment's
// parameters, and the password of its user info.
func urlValues(raw string) []namedValue {
	if !strings.ContainsAny(raw, "?#@") {
		return nil
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil
	}
	var out []namedValue
	if p, ok := u.User.Password(); ok {
		out = append(out, namedValue{"password", p})
	}
	for _, q := range []string{u.RawQuery, u.Fragment} {
		out = append(out, queryValues(q)...)
	}
	return out
}

func queryValues(q string) []namedValue {
	if !strings.Contains(q, "=") {
		return nil
	}
	vals, _ := url.ParseQuery(q) // what parses; a stray % spoils only its own pair
	var out []namedValue
	for k, vs := range vals {
		for _, v := range vs {
			out = append(out, namedValue{k, v})
		}
	}
	return out
}

// bodyValues are the named values of a request body, read by its
// Content-Type as the browser sent it: JSON (every member at any depth),
// form data, or multipart form data (each part by its name; a file's
// contents are not read).
func bodyValues(body, contentType string) []namedValue {
	media, params, _ := mime.ParseMediaType(contentType)
	switch {
	case media == "multipart/form-data" && params["boundary"] != "":
		var out []namedValue
		r := multipart.NewReader(strings.NewReader(body), params["boundary"])
		for {
			p, err := r.NextPart()
			if err != nil {
				break
			}
			if p.FileName() == "" {
				data, _ := io.ReadAll(io.LimitReader(p, 1<<20))
				out = append(out, namedValue{p.FormName(), string(data)})
			}
		}
		return out
	case media == "application/x-www-form-urlencoded":
		return queryValues(body)
	}
	var doc any
	dec := json.NewDecoder(bytes.NewReader([]byte(body)))
	dec.UseNumber()
	if dec.Decode(&doc) != nil {
		return nil
	}
	return jsonValues("", doc)
}

// jsonValues are the string members of a decoded JSON document, each by
// the key it sits under (an array's elements by their array's key).
func jsonValues(key string, v any) []namedValue {
	switch v := v.(type) {
	case string:
		return []namedValue{{key, v}}
	case []any:
		var out []namedValue
		for _, x := range v {
			out = append(out, jsonValues(key, x)...)
		}
		return out
	case map[string]any:
		var out []namedValue
		for k, x := range v {
			out = append(out, jsonValues(k, x)...)
		}
		return out
	}
	return nil
}
