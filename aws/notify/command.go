package notify

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"
)

// credentialVars are the environment variables that carry AWS credentials (or fetch
// them): the notify command is not given them, since it needs none of gpublock's access.
// AWS_PROFILE and the like stay: they name credentials, they do not hold them.
var credentialVars = []string{
	"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_SECURITY_TOKEN",
	"AWS_CREDENTIAL_EXPIRATION", "AWS_CONTAINER_AUTHORIZATION_TOKEN", "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE",
	"AWS_CONTAINER_CREDENTIALS_FULL_URI", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "AWS_WEB_IDENTITY_TOKEN_FILE",
	"AWS_ROLE_ARN", "AWS_ROLE_SESSION_NAME", "AWS_ACCOUNT_ID",
}

// commandEnv is env without the credential variables, nor any AWS_ variable whose name
// says it holds a secret, a token, a key or a password.
func commandEnv(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if isCredentialVar(name) {
			continue
		}
		out = append(out, kv)
	}
	return out
}

func isCredentialVar(name string) bool {
	u := strings.ToUpper(name)
	for _, c := range credentialVars {
		if u == c {
			return true
		}
	}
	if !strings.HasPrefix(u, "AWS_") {
		return false
	}
	for _, w := range []string{"SECRET", "TOKEN", "ACCESS_KEY", "PASSWORD", "CREDENTIAL"} {
		if strings.Contains(u, w) {
			return true
		}
	}
	return false
}

// eventEnv is the event as GPUBLOCK_* variables; an auto-extension's facts only when it has them.
func eventEnv(e Event) []string {
	env := []string{
		"GPUBLOCK_WARNING=" + e.Kind,
		"GPUBLOCK_TEXT=" + e.Text,
		"GPUBLOCK_RESERVATION_ID=" + e.ReservationID,
		"GPUBLOCK_REGION=" + e.Region,
		"GPUBLOCK_INSTANCE_TYPE=" + e.InstanceType,
		"GPUBLOCK_END=" + e.End.Format(time.RFC3339),
		"GPUBLOCK_EXTEND_BY=" + e.ExtendBy.Format(time.RFC3339),
		"GPUBLOCK_LEAD=" + e.Lead,
		"GPUBLOCK_KEY=" + e.Key,
	}
	if e.Account != "" {
		env = append(env, "GPUBLOCK_ACCOUNT="+e.Account)
	}
	if e.Length != "" {
		env = append(env, "GPUBLOCK_LENGTH="+e.Length, "GPUBLOCK_FEE="+e.Fee, "GPUBLOCK_NEW_END="+e.NewEnd.Format(time.RFC3339))
	}
	if e.Reason != "" {
		env = append(env, "GPUBLOCK_REASON="+e.Reason)
	}
	return env
}

// runCommand runs the notify command with the event on stdin. It runs in a process group
// of its own, ended when the command's shell exits or its time runs out, so that nothing
// it started outlives the delivery; its stderr's last line is the error's words.
func runCommand(ctx context.Context, command string, e Event, body []byte) error {
	cmd := exec.Command("/bin/sh", "-c", command)
	cmd.Stdin = bytes.NewReader(append(body, '\n'))
	cmd.Env = append(commandEnv(os.Environ()), eventEnv(e)...)
	// stderr is a pipe of our own, not one exec waits on: a child that keeps it open must
	// not hold up the delivery, and ending the group closes it.
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	cmd.Stderr = w
	ownGroup(cmd)
	cmd.WaitDelay = time.Second // for stdin, should a child hold it
	if err := cmd.Start(); err != nil {
		r.Close()
		w.Close()
		return err
	}
	w.Close()
	var stderr bytes.Buffer
	read := make(chan struct{})
	go func() {
		io.Copy(&stderr, io.LimitReader(r, 64<<10))
		io.Copy(io.Discard, r)
		close(read)
	}()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	var runErr error
	select {
	case runErr = <-exited:
		endGroup(cmd)
	case <-ctx.Done():
		endGroup(cmd)
		<-exited
		runErr = fmt.Errorf("timed out, its process group was ended")
		if ctx.Err() != context.DeadlineExceeded {
			runErr = fmt.Errorf("stopped at exit, its process group was ended")
		}
	}
	t := time.NewTimer(time.Second) // a process that left the group may still hold stderr
	select {
	case <-read:
	case <-t.C:
	}
	t.Stop()
	r.Close()
	if runErr != nil {
		if msg := lastLine(stderr.String()); msg != "" {
			return fmt.Errorf("%v: %s", runErr, msg)
		}
		return runErr
	}
	return nil
}
