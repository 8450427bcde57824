package source

import (
	"context"

	"github.com/gpublock/gpublock/model"
)

type extensionProgressKey struct{}

// WithExtensionProgress has a source's ExtensionChoices, run under the returned context,
// call f after every length (from any goroutine, one call at a time): the front ends say
// what is left while AWS's bucket paces the lengths.
func WithExtensionProgress(ctx context.Context, f func(model.ExtensionProgress)) context.Context {
	return context.WithValue(ctx, extensionProgressKey{}, f)
}

// ExtensionProgressHook is the f of WithExtensionProgress on ctx, or nil.
func ExtensionProgressHook(ctx context.Context) func(model.ExtensionProgress) {
	f, _ := ctx.Value(extensionProgressKey{}).(func(model.ExtensionProgress))
	return f
}
