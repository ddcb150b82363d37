package har

import "testing"

func TestUnits(t *testing.T) {
	t.Run("milliseconds are rounded, not truncated", func(t *testing.T) {
		for _, tt := range []struct{ from, to, want float64 }{
			{100.010, 100.015, 5}, // 0.00499999999999545 s
			{101, 101.020, 20},    // 0.01999999999999602 s
			{12345.678901, 12345.679902, 1.001},
			{1, 1, 0},
		} {
			if got := ms(tt.to - tt.from); got != tt.want {
				t.Errorf("ms(%v - %v) = %v, want %v", tt.to, tt.from, got, tt.want)
			}
		}
	})
	t.Run("protocol names", func(t *testing.T) {
		for proto, want := range map[string]string{"h2": "HTTP/2.0", "H3": "HTTP/3.0", "": "HTTP/1.1", "http/1.0": "HTTP/1.0"} {
			if got := httpVersion(proto); got != want {
				t.Errorf("httpVersion(%q) = %q, want %q", proto, got, want)
			}
		}
	})
}
