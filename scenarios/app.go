package scenarios

// FolderFile is the file of a scenario folder that holds what is shared by
// the whole folder (the app the suite starts: package appserver). It is
// not a scenario: LoadDir passes it by.
const FolderFile = "agentready.yaml"

// AppRun is what a scenario adds to the start of its folder's app.
type AppRun struct {
	// Arguments after the command's own; {port} is the app's port.
	Args []string `yaml:"args,omitempty" json:"args,omitempty" examples:"[[--variant, writes-early]]"`
	// Environment over the folder file's; {port} is the app's port.
	Env map[string]string `yaml:"env,omitempty" json:"env,omitempty" examples:"[{ORDERS_EARLY: '1'}]"`
}

// Empty tells whether the scenario adds nothing to the start.
func (a *AppRun) Empty() bool { return a == nil || (len(a.Args) == 0 && len(a.Env) == 0) }
