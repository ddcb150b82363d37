// Package record holds what a run records, as plain data: the tools a page
// offers and the trace of their events, invocation results, the network log,
// the app's journal and state, and the elements and console entries of the
// page. It talks to no browser: the packages that record (webmcp, netlog,
// observer, browser) fill these types, and the pure judge, the bundle and
// verify read them.
package record
