package tui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/sources"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/cmd/internal/config"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/ui"
	"github.com/gpublock/gpublock/ui/a11y"
	uiscreen "github.com/gpublock/gpublock/ui/screen"
	"github.com/gpublock/gpublock/ui/theme"
)

// Options is every flag of the TUI.
type Options struct {
	IO *cmdutil.IOStreams
	// Notify bounds the delivery of the warnings' notifications.
	Notify cmdutil.NotifyTimings
	// Catalog is the price catalog, read once when the TUI starts.
	Catalog func() (*pricing.Catalog, error)
	// Config reads the configuration file, which the flags are laid over.
	Config config.Loader

	AWS     *cmdutil.AWSFlags
	noColor bool
	// The screen it opens on, and the blocks screen's.
	screen   string
	refresh  time.Duration
	noNotify bool
	noMouse  bool
	// accessible: --accessible, and accessibleGiven that it was on the command line, where
	// it wins over $ACCESSIBLE and the configuration file.
	accessible      bool
	accessibleGiven bool
	// watchEvery is how often a watched search (w) runs again.
	watchEvery time.Duration
	// oncall: --warn-leads, --notify-cmd, --notify-url (config.Oncall).
	oncall cmdutil.OncallFlags
	// theme is the palette: auto (the terminal's background), light or dark; themeGiven
	// says --theme was on the command line, where it wins over the configuration file.
	theme      string
	themeGiven bool
}

// minBlocksRefresh keeps the blocks screen from hammering the API: a listing makes five
// calls per region.
const minBlocksRefresh = 5 * time.Second

// tuiFPS is the most frames a second the TUI draws. Bubble Tea's renderer stops waking half a
// second after the last frame that changed anything and wakes again with the next view, so
// the rate no longer sets the idle CPU, only how soon a key shows: upstream's 60 (README,
// Speed, has both measured).
const tuiFPS = 60

// A watched search makes a call per region and duration each round: not more often than a
// minute, and at least once a day.
const (
	minWatchEvery = time.Minute
	maxWatchEvery = 24 * time.Hour
)

// Screens are the screens --screen opens the TUI on.
var Screens = []string{"search", "blocks", "advisor", "report"}

// NewCmdTUI is the root command: with no command name it starts the TUI, with its flags
// and the AWS flags (declared here, as persistent flags, for every command); runF, when not
// nil, is given the options once checked, instead of running them.
func NewCmdTUI(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	a := &Options{IO: f.IOStreams, Notify: f.Notify, Catalog: f.Catalog, Config: f.Config}
	root := &cobra.Command{
		Use:   "gpublock",
		Short: "find, price, book and watch AWS GPU capacity: EC2 Capacity Blocks for ML and SageMaker Training Plans",
		Long:  rootLong,
		Example: "  gpublock --demo\n" +
			"  gpublock offerings --type p5.48xlarge --duration 2d --region all\n" +
			"  gpublock --endpoint-url http://127.0.0.1:4566 blocks -o json",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return cmdutil.UnknownCommand(cmd, args[0])
			}
			return nil
		},
		SilenceUsage:      true,
		SilenceErrors:     true,
		CompletionOptions: cobra.CompletionOptions{HiddenDefaultCmd: false},
		RunE: func(cmd *cobra.Command, _ []string) error {
			a.AWS = f.AWS
			if err := a.check(cmd.Flags()); err != nil {
				return err
			}
			if runF != nil {
				return runF(a)
			}
			return cmdutil.CodeError(tuiRun(cmd.Context(), a))
		},
	}
	f.AWS.Register(root.PersistentFlags())
	a.register(root.Flags())
	return root
}

// check reads what the flags say, before anything starts.
func (a *Options) check(fs *pflag.FlagSet) error {
	switch {
	case !slices.Contains(Screens, a.screen):
		return cmdutil.Usagef("--screen %q: allowed search, blocks, advisor or report", a.screen)
	case a.refresh < minBlocksRefresh:
		return cmdutil.Usagef("--refresh %s: allowed 5s or more", a.refresh)
	case a.watchEvery < minWatchEvery || a.watchEvery > maxWatchEvery:
		return cmdutil.Usagef("--watch-every %s: allowed 1m to 24h", a.watchEvery)
	}
	a.themeGiven = fs.Changed("theme")
	a.accessibleGiven = fs.Changed("accessible")
	if _, err := theme.ParseMode(a.theme); err != nil {
		return cmdutil.Usagef("--%v", err)
	}
	if err := a.AWS.Validate(); err != nil {
		return err
	}
	a.AWS.AutoDemo = true
	a.AWS.SDKLog = io.Discard
	a.noColor = a.noColor || !a.IO.ColorEnabled()
	return nil
}

// register declares the TUI's own flags (the AWS flags are AWSFlags.Register's).
func (a *Options) register(fs *pflag.FlagSet) {
	fs.BoolVar(&a.noColor, "no-color", false, "draw without colour (also when $NO_COLOR is set)")
	fs.StringVar(&a.screen, "screen", "search", "the `screen` to open on: search, blocks (every block, its countdown and warnings), advisor (which capacity to buy for a job) or report (what was paid and used)")
	fs.DurationVar(&a.refresh, "refresh", uiscreen.DefaultRefresh, "how often the blocks and the orders list are read again (at least 5s; r reads at once)")
	fs.BoolVar(&a.noNotify, "no-notify", false, "no bell or desktop notification (OSC 9) for a block's warnings or a watched search's new offerings (n toggles them)")
	fs.BoolVar(&a.accessible, "accessible", false, "for screen readers and braille displays: no animation, no box drawing or block graphics, tables and charts said in sentences (also $ACCESSIBLE, or accessible: true in the configuration file)")
	fs.BoolVar(&a.noMouse, "no-mouse", false, "leave the mouse to the terminal (its own text selection): no wheel scrolling, no clicks on rows and column titles")
	fs.DurationVar(&a.watchEvery, "watch-every", 5*time.Minute, "how often a watched search (w in the search screen) runs again, 1m to 24h")
	a.oncall.Register(fs)
	fs.StringVar(&a.theme, "theme", "auto", "`colours` for a light or a dark terminal: auto (ask the terminal), light or dark")
}

// tuiRun starts the terminal UI with what the flags say (newTUICmd has checked them).
func tuiRun(ctx context.Context, a *Options) int {
	stdout, stderr := a.IO.Out, a.IO.ErrOut
	f, noColor := a.AWS, a.noColor
	// The configuration file's read-only, cap, tags, AMI, theme and mouse (package config);
	// flags win.
	if path, legacy, err := config.UserPath(); err == nil && legacy {
		fmt.Fprintln(stderr, config.LegacyNotice(path))
	}
	spend, err := cmdutil.TUIConfigFor(f, a.Config)
	if err != nil {
		fmt.Fprintln(stderr, "gpublock:", err)
		return 2
	}
	oncall, err := newTUIOncall(f, a.oncall, a.Config, a.Notify.Backoff)
	if err != nil {
		fmt.Fprintln(stderr, "gpublock:", err)
		return 2
	}
	defer oncall.close()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// The price catalog is read once, here, with the cache of prices --refresh laid over the
	// embedded figures; a damaged cache leaves the embedded ones, which Load returns with it.
	prices, _ := a.Catalog()
	if !a.themeGiven && spend.Theme != "" {
		a.theme = spend.Theme // checked when the file was read
	}
	_ = theme.Set(a.theme)   // checked by parseTUI
	var program *tea.Program // Connect runs inside it, after it is made
	opts := ui.Options{
		Prices:  prices,
		Profile: f.Profile,
		Region:  f.HomeRegion(),
		NoColor: noColor,
		Context: ctx,
		// The backend opens behind the first frame: resolving credentials (an SSO refresh,
		// the instance metadata service timing out) can take seconds.
		Connect: func(ctx context.Context) (ui.Connection, error) {
			return connect(ctx, f, func(c *awsapi.Client) []sources.Option {
				oncall.connected(c)
				go oncall.fireLaunches(ctx, c, a.refresh, program.Send)
				go oncall.fillOrders(ctx, c, a.refresh, program.Send)
				// The auto-extension's declines and outcomes go where the warnings go.
				return []sources.Option{sources.WithNotifier(oncall.notifier.Load())}
			})
		},
		// Buying and launching: --read-only and --max-spend reach the adapter
		// through f as well.
		ReadOnly: spend.ReadOnly,
		MaxSpend: spend.MaxSpend,
		// The refusal names where the cap came from, as the command line's does.
		MaxSpendRule: f.MaxSpendRule(),
		DefaultTags:  spend.Tags,
		DefaultAMI:   spend.AMI,
		// The blocks screen.
		StartOnBlocks: a.screen == "blocks",
		Organization:  f.Organization(),
		// --profile naming fewer accounts than the configuration's: the figures may be low.
		OrganizationPartial: f.Organization() && !f.ListsOrganization(),
		StartOnAdvisor:      a.screen == "advisor",
		StartOnReport:       a.screen == "report",
		Refresh:             a.refresh,
		NoNotify:            a.noNotify,
		NoMouse:             a.noMouse,
		WatchEvery:          a.watchEvery,
	}
	oncall.apply(&opts)
	applyConfigMouse(&opts, spend.Mouse)
	opts.Accessible = accessibleMode(a.accessible, a.accessibleGiven, os.Getenv(a11y.EnvVar), spend.Accessible)
	popts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithOutput(stdout), tea.WithFPS(tuiFPS)}
	if noColor {
		popts = append(popts, tea.WithColorProfile(colorprofile.Ascii))
	}
	program = tea.NewProgram(ui.New(opts), popts...)
	final, err := program.Run()
	if err != nil && strings.Contains(err.Error(), "opening TTY") {
		// Bubble Tea names no error value for it; the words are its own.
		fmt.Fprintln(stderr, "gpublock: the terminal UI needs a terminal, and none could be opened (no /dev/tty).")
		fmt.Fprintln(stderr, "From a script, use the commands instead: gpublock help lists them.")
		return 2
	}
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, tea.ErrInterrupted) {
		fmt.Fprintln(stderr, "gpublock:", err)
		return 1
	}
	if m, ok := final.(ui.Model); ok && m.Err() != nil {
		fmt.Fprintln(stderr, "gpublock:", m.Err())
		return 1
	}
	return 0
}

// connect opens the backend for the TUI. Its messages go on screen, not to stderr, which
// the TUI is drawing over. onClient, when set, is given the client of the account that pays
// first, and returns its backend's options. Every account the flags or the configuration
// list is opened, each its own client: the blocks screen lists them all; searches and
// purchases are the first's, which the header names.
func connect(ctx context.Context, f *cmdutil.AWSFlags, onClient func(*awsapi.Client) []sources.Option) (ui.Connection, error) {
	open := func(ctx context.Context, g *cmdutil.AWSFlags) (*awsapi.Client, cmdutil.BackendInfo, error) {
		return cmdutil.OpenBackend(ctx, g, io.Discard)
	}
	over := func(c *awsapi.Client, home bool) source.Backend {
		var opts []sources.Option
		if home && onClient != nil {
			opts = onClient(c)
		}
		return sources.New(c, cmdutil.SourcesOver(c), opts...)
	}
	backend, client, info, err := cmdutil.OpenAccounts(ctx, f, open, over)
	if err != nil {
		return ui.Connection{}, errors.New(awsapi.ExplainError(err).String())
	}
	// Relative dates and the 8-week limit are read on the backend's clock: the emulator's
	// may be moved. Its offset is read once, so the UI's clock is never I/O.
	var offset time.Duration
	if info.Endpoint != "" {
		offset = client.Now(ctx).Sub(time.Now())
	}
	c := ui.Connection{
		Backend:   backend,
		Simulated: info.Mode == cmdutil.ModeSimulated,
		Profile:   client.Profile(),
		Region:    client.Region(),
		Now:       func() time.Time { return time.Now().Add(offset) },
	}
	if info.Sim != nil {
		// The built-in emulator serves both sources: the demo searches them side by side.
		c.Sources = model.Sources()
	}
	switch {
	case info.Sim != nil && !f.Demo: // OpenBackend fell back to the simulator
		c.Notice = "No AWS credentials: the built-in simulator (as --demo). Nothing is real; purchases charge nothing."
	case c.Simulated && info.Sim == nil:
		c.Notice = "The emulator at " + info.Endpoint + " (gpublock sim): nothing is real; purchases charge nothing."
	}
	return c, nil
}

// accessibleMode is whether the TUI runs in its accessible mode: the flag when given, else
// $ACCESSIBLE when set (the variable charmbracelet/huh's accessible forms read), else the
// configuration file's accessible.
func accessibleMode(flag, flagGiven bool, env string, file *bool) bool {
	switch {
	case flagGiven:
		return flag
	case env != "":
		return a11y.FromEnv(env)
	case file != nil:
		return *file
	}
	return false
}

// applyConfigMouse applies the file's mouse key: `mouse: false` leaves the mouse to the
// terminal, as --no-mouse does (the flag wins either way).
func applyConfigMouse(opts *ui.Options, mouse *bool) {
	if mouse != nil && !*mouse {
		opts.NoMouse = true
	}
}

const rootLong = "gpublock finds, prices, books, launches into and watches short-term AWS GPU capacity: EC2 Capacity Blocks for ML and SageMaker Training Plans. " +
	"With no command it starts the terminal UI. The AWS flags (--profile, --region, --endpoint-url, " +
	"--demo, --read-only, --max-spend, ...) work before or after the command name.\n\n" +
	"Exit status: 0 ok, 1 failure, 2 bad usage; some commands document a 3 of their own."
