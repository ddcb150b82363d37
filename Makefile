# agentready — see README.md. Every target that needs a browser first makes
# sure Debian's Chromium is there (installing it with apt-get when it is not).

GO        ?= go
GINKGO    := $(GO) tool ginkgo
# One Ginkgo process: on 2 cores two processes (each with its own Chromium)
# measured slower (56 s against 51 s). PROCS=2 or more on bigger machines.
PROCS     ?= 1
REPORTS   ?= reports
EVIDENCE  ?= evidence
export AGENTREADY_EVIDENCE ?= $(abspath $(EVIDENCE))
ifndef RUN_ID
RUN_ID    := $(shell date -u +%Y%m%dT%H%M%SZ)
endif
export AGENTREADY_RUN_ID := $(RUN_ID)
VERIFY    := $(GO) run ./cmd/agentready verify

GINKGO_FLAGS := --procs=$(PROCS) --fail-on-empty --timeout=10m --poll-progress-after=60s \
	--output-dir=$(REPORTS) --json-report=e2e.json --junit-report=e2e.junit.xml

# Against a user's own app (AGENTREADY_BASE_URL), only the specs made from
# scenario files run: the suite's own specs are about its embedded app.
ifneq ($(AGENTREADY_BASE_URL),)
ONLY_FILES := scenario-file
endif
E2E_FILTER := $(if $(ONLY_FILES),--label-filter='$(ONLY_FILES)')
SCENARIO_FILTER = --label-filter='$(if $(ONLY_FILES),($(ID)) && $(ONLY_FILES),$(ID))'

# E2E_SUMMARY: the scenarios' table and the closing line; an INCONCLUSIVE
# scenario becomes a JUnit <error> with its codes (ci/summarize).
E2E_SUMMARY = $(GO) run ./ci/summarize --scenarios --junit $(REPORTS)/e2e.junit.xml

# after-run: verify what was written, name the index, print the table and the
# summary line, whatever the specs did; fail when the specs or verify failed.
define after-run
status=$$?; \
$(VERIFY) $(AGENTREADY_EVIDENCE)/$(RUN_ID) || status=1; \
echo "evidence: $(AGENTREADY_EVIDENCE)/$(RUN_ID)/index.html"; \
$(E2E_SUMMARY) --label $(1) $(REPORTS)/e2e.json || status=1; \
exit $$status
endef

.PHONY: all deps chromium test unit e2e mutants bench flake scenario serve verify vet fmt clean

all: test

## deps: Go modules and Chromium (Debian's package; never a downloaded browser)
deps: chromium
	$(GO) mod download

chromium:
	@bash ci/ensure-chromium.sh

## vet: go vet, gofmt and staticcheck (the version go.mod's tool line pins)
vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l .)" || { echo "gofmt would change:"; gofmt -l .; exit 1; }
	$(GO) tool staticcheck ./...

## unit: the packages' own tests, with the race detector (the browser package's start Chromium)
unit: deps
	@mkdir -p $(REPORTS)
	$(GO) test -race -count=1 -json $$($(GO) list ./... | grep -v -e /e2e -e /mutants) > $(REPORTS)/unit.json || { $(GO) run ./ci/summarize --failures $(REPORTS)/unit.json; exit 1; }
	@$(GO) run ./ci/summarize --label unit $(REPORTS)/unit.json

## test: what CI runs: vet, unit tests, the browser specs, verify every bundle they wrote, make e2e against
## an app of our own without observation endpoints (ci/user-mode.sh), then the mutant gate
test: deps vet unit
	@$(GINKGO) $(GINKGO_FLAGS) ./e2e; status=$$?; $(E2E_SUMMARY) --label e2e $(REPORTS)/e2e.json || status=1; exit $$status
	$(VERIFY) $(AGENTREADY_EVIDENCE)/$(RUN_ID)
	bash ci/user-mode.sh
	$(MAKE) --no-print-directory mutants
	@$(GO) run ./ci/summarize --label all $(REPORTS)/unit.json $(REPORTS)/e2e.json $(REPORTS)/mutants.json

## mutants: every variant killed by its own code, every evidence mutation flips, baseline agents pass nothing
mutants: deps
	@mkdir -p $(REPORTS)
	AGENTREADY_REPORTS=$(abspath $(REPORTS)) $(GO) test -count=1 -json ./mutants > $(REPORTS)/mutants.json || { $(GO) run ./ci/summarize --failures $(REPORTS)/mutants.json; cat $(REPORTS)/mutants.txt $(REPORTS)/evidence-mutations.txt 2>/dev/null; exit 1; }
	@cat $(REPORTS)/mutants.txt $(REPORTS)/baselines.txt
	@tail -1 $(REPORTS)/evidence-mutations.txt
	@$(GO) run ./ci/summarize --label mutants $(REPORTS)/mutants.json

## e2e: the main job: every spec and scenario against the embedded reference app (or only the
## scenario files against AGENTREADY_BASE_URL), with evidence, verify, the index and a summary
e2e: deps
	@mkdir -p $(REPORTS)
	@$(GINKGO) $(GINKGO_FLAGS) $(E2E_FILTER) ./e2e; $(call after-run,e2e)

## verify BUNDLE=path: check bundles (or a run folder) offline
verify:
	$(VERIFY) $(BUNDLE)

## scenario ID=AMB-01: one scenario (or any label expression) alone
scenario: deps
	@test -n "$(ID)" || { echo "usage: make scenario ID=AMB-01 (or a label expression)"; exit 2; }
	@mkdir -p $(REPORTS)
	@$(GINKGO) $(GINKGO_FLAGS) --procs=1 $(SCENARIO_FILTER) ./e2e; $(call after-run,scenario)

## bench: the CONF-01 attempt 3 flow three ways (bare chromedp, the suite, Playwright) and the suite's wall time
bench: deps
	@command -v node >/dev/null || { echo "bench: node is needed for the Playwright comparison (apt-get install -y nodejs npm)"; exit 1; }
	cd bench/playwright && npm ci --no-audit --no-fund --loglevel=error
	$(GO) run ./bench -n $(or $(N),20) -out $(REPORTS)/bench.json

## flake N=20: rerun the whole suite N times and report every failure (0 is required)
flake: deps
	PROCS=$(PROCS) REPORTS=$(REPORTS) bash ci/flake.sh $(or $(N),20)

## serve: the reference app on http://127.0.0.1:8080/events
serve:
	$(GO) run ./cmd/agentready serve $(ARGS)

fmt:
	gofmt -w $$(git ls-files '*.go')

clean:
	rm -rf $(REPORTS) $(EVIDENCE)
