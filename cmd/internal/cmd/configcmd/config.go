package configcmd

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gpublock/gpublock/aws/filelock"
	"github.com/gpublock/gpublock/aws/notify"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/cmd/internal/config"
)

const configSynopsis = "where it is, what it sets, and writing it.\n\n" +
	"path  prints where the configuration file is (config.yaml under $XDG_CONFIG_HOME/gpublock,\n" +
	"      or ~/.config/gpublock), whether it exists or not.\n" +
	"show  checks the file and prints what it sets, the webhook URL and notify_cmd's arguments left out.\n" +
	"init  writes config.yaml: from the older config.json when there is one, else a commented\n" +
	"      example; an existing config.yaml is kept unless --force.\n\n" +
	"Keys: read_only, max_spend, ami, tags, warn_leads, notify_cmd, notify_url, extend_length,\n" +
	"theme (auto, light or dark), mouse (true or false), accessible (true or false), demo_rate_limits (the demo's\n" +
	"request buckets, as --rate-limits), accounts (the profiles whose reservations the listings\n" +
	"show together; --profile a,b does the same) and organization (true: they are the whole\n" +
	"organization, whose 256-instance cap is shown), state (where what gpublock has done is kept:\n" +
	"s3://BUCKET/PREFIX for a team, as --state). The flags of the same names win.\n\n" +
	"Exit status: 0 ok, 1 the file could not be written, 2 bad usage or a damaged file."

// configTemplate is the file `config init` writes when there is nothing to move.
const configTemplate = `# gpublock configuration (gpublock config show checks it). Flags win over it,
# except that read_only from either place holds.
# read_only: true          # never buy, extend or launch
# max_spend: "25000"       # refuse any purchase above this many dollars
# ami: ami-0123456789abcdef0
# tags: {project: llm-pretrain, cost-center: "42"}
# warn_leads: 24h,2h,40m   # when a block's end is warned about
# notify_cmd: notify-send gpublock "$GPUBLOCK_TEXT"
# notify_url: https://hooks.slack.com/services/...
# extend_length: 7d
# theme: auto              # auto (ask the terminal), light or dark
# mouse: true              # false leaves the mouse to the terminal
# accessible: false         # true: screen readers and braille displays (--accessible)
# demo_rate_limits: aws    # the demo at AWS's request pace (10 searches at once, then 0.15/s)
# state: s3://team-bucket/gpublock   # a team's shared records (default: $XDG_STATE_HOME/gpublock)
# organization: true       # the accounts below are the organization's whole set (its 256-instance cap)
# accounts:                # list every account's reservations; search and spend in the first
#   - {profile: ml-prod, regions: [us-east-1, us-west-2]}
#   - {profile: research, endpoint_url: "http://127.0.0.1:4566"}
`

// NewCmdConfig is `gpublock config path|show|init`, cobra's own command: its arguments and
// flags are checked by cobra, its help is fang's.
func NewCmdConfig(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config",
		Short: "the configuration file: config path, config show, config init",
		Long:  "The configuration file: " + configSynopsis,
		Args:  cmdutil.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			return cmdutil.Usagef("want one of path, show or init")
		},
		Annotations:       map[string]string{cmdutil.AnnotationNoAWS: "true"},
		PersistentPreRunE: cmdutil.RefuseAWSFlags,
	}
	var force bool
	initCmd := &cobra.Command{
		Use:   "init",
		Short: "write config.yaml, from config.json when there is one, else an example",
		Args:  cmdutil.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			yamlPath, jsonPath, code := configPaths(f.IOStreams.ErrOut)
			if code != 0 {
				return cmdutil.CodeError(code)
			}
			return cmdutil.CodeError(configInit(f.IOStreams.Out, f.IOStreams.ErrOut, yamlPath, jsonPath, force))
		},
	}
	initCmd.Flags().BoolVar(&force, "force", false, "replace an existing config.yaml")
	cmd.AddCommand(&cobra.Command{
		Use:   "path",
		Short: "print where the configuration file is, whether it exists or not",
		Args:  cmdutil.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			yamlPath, jsonPath, code := configPaths(f.IOStreams.ErrOut)
			if code != 0 {
				return cmdutil.CodeError(code)
			}
			fmt.Fprintln(f.IOStreams.Out, yamlPath)
			if _, legacy, _ := config.UserPath(); legacy {
				fmt.Fprintln(f.IOStreams.ErrOut, config.LegacyNotice(jsonPath))
			}
			return nil
		},
	}, &cobra.Command{
		Use:   "show",
		Short: "check the file and print what it sets, secrets left out",
		Args:  cmdutil.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			return cmdutil.CodeError(configShow(f.IOStreams.Out, f.IOStreams.ErrOut))
		},
	}, initCmd)
	return cmd
}

// configPaths are config.yaml and the older config.json; no home directory is exit 1.
func configPaths(stderr io.Writer) (yamlPath, jsonPath string, code int) {
	dir, err := config.Dir()
	if err != nil {
		fmt.Fprintf(stderr, "gpublock config: no home directory for the configuration file: %v\n", err)
		return "", "", 1
	}
	return filepath.Join(dir, config.YAMLName), filepath.Join(dir, config.JSONName), 0
}

func configShow(stdout, stderr io.Writer) int {
	path, legacy, _ := config.UserPath()
	c, err := cmdutil.LoadConfig(path)
	if err != nil {
		fmt.Fprintf(stderr, "gpublock config: %v\n", err)
		return 2
	}
	if legacy {
		fmt.Fprintln(stderr, config.LegacyNotice(path))
	}
	if _, err := os.Stat(path); err != nil {
		fmt.Fprintf(stderr, "gpublock config: no file at %s: the defaults hold (gpublock config init writes one)\n", path)
		return 0
	}
	if c.NotifyURL != "" {
		c.NotifyURL = notify.Redact(c.NotifyURL) // a webhook's path is its secret
	}
	if prog, rest, ok := strings.Cut(strings.TrimSpace(c.NotifyCmd), " "); ok && strings.TrimSpace(rest) != "" {
		c.NotifyCmd = prog + " …" // its arguments may carry a token
	}
	b, err := config.Marshal(c)
	if err != nil {
		fmt.Fprintf(stderr, "gpublock config: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "# %s\n%s", path, b)
	return 0
}

// configInit writes config.yaml from config.json, or the template.
func configInit(stdout, stderr io.Writer, yamlPath, jsonPath string, force bool) int {
	if _, err := os.Stat(yamlPath); err == nil && !force {
		fmt.Fprintf(stderr, "gpublock config: %s exists; nothing was written (--force replaces it)\n", yamlPath)
		return 1
	}
	body := []byte(configTemplate)
	from := ""
	if _, err := os.Stat(jsonPath); err == nil {
		c, err := cmdutil.LoadConfig(jsonPath)
		if err != nil {
			fmt.Fprintf(stderr, "gpublock config: %v; fix it first, nothing was written\n", err)
			return 2
		}
		b, err := config.Marshal(c)
		if err != nil {
			fmt.Fprintf(stderr, "gpublock config: %v\n", err)
			return 1
		}
		body, from = append([]byte("# written by gpublock config init from "+jsonPath+"\n"), b...), jsonPath
	}
	// What is written must read back as the same configuration: a move never loses a promise.
	var back config.File
	if _, err := config.DecodeYAML(body, &back); err != nil {
		fmt.Fprintf(stderr, "gpublock config: the file to write does not read back (%v); nothing was written\n", err)
		return 1
	}
	if err := writeFileAtomic(yamlPath, body); err != nil {
		fmt.Fprintf(stderr, "gpublock config: writing %s: %v\n", yamlPath, cmdutil.PathReason(err))
		return 1
	}
	fmt.Fprintln(stdout, yamlPath)
	if from != "" {
		fmt.Fprintf(stderr, "gpublock config: wrote %s from %s; the JSON file is no longer read: delete it when you are done.\n", yamlPath, from)
	}
	return 0
}

// writeFileAtomic writes path through a temporary file beside it, readable by its owner only.
func writeFileAtomic(path string, body []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return filelock.WriteAtomic(path, body)
}
