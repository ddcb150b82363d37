// Package hang is the one bound of a test's wait for something a browser
// or a server must do (an event, a request, a page's answer): a hang's
// bound, not a speed's. Such a wait returns the moment the thing happens;
// the bound only says how long a broken build hangs before it fails, so
// it is set far above what a busy machine takes. Measured (issue 45): with
// -race and two CPU hogs, a page's tool list that follows a call in
// milliseconds on an idle machine took 10.6 s once; a test that bounded it
// at 10 s went red with no defect. A test that asserts speed is a
// benchmark, not a test.
package hang

import "time"

// Bound is how long a test waits for what must happen.
const Bound = 90 * time.Second
