// Command sdkgen writes the Python, Go and Node.js SDKs of the provider plugins from their schemas, with the code
// generators of the pinned github.com/pulumi/pulumi/pkg/v3 (the ones `pulumi package gen-sdk` reaches through a
// language host, which this project cannot install). `npm run sdks` runs it; a test compares its output with the
// committed SDKs.
//
// Usage: sdkgen -out <dir> <schema.json>...
//
// Each package's SDKs go to <dir>/python/<name>, <dir>/go/<name> and <dir>/nodejs/<name>, each folder replaced
// whole, so that nothing stale stays. <dir>/go/go.mod and go.sum belong to the Go module of both packages, which
// `go mod tidy` keeps (scripts/sdks.js), not to a generator.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/blang/semver"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// tool names the generator in the generated files' headers.
const tool = "sdkgen (npm run sdks)"

// noLoader refuses every package: the schemas reference only their own types. BindSpec panics on a nil loader.
type noLoader struct{}

var errNoOtherPackage = errors.New("the schemas of this project reference no other package")

func (noLoader) LoadPackage(string, *semver.Version) (*schema.Package, error) {
	return nil, errNoOtherPackage
}

func (noLoader) LoadPackageV2(context.Context, *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, errNoOtherPackage
}

func (noLoader) LoadPackageReference(string, *semver.Version) (schema.PackageReference, error) {
	return nil, errNoOtherPackage
}

func (noLoader) LoadPackageReferenceV2(context.Context, *schema.PackageDescriptor) (schema.PackageReference, error) {
	return nil, errNoOtherPackage
}

// bind reads and validates a schema. Each generator is given a package of its own: they record their language's
// options on the package they are given.
func bind(file string) (*schema.Package, error) {
	text, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(text, &spec); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	pkg, diags, err := schema.BindSpec(spec, noLoader{}, schema.ValidationOptions{})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if diags.HasErrors() {
		return nil, fmt.Errorf("%s: %s", file, diags.Error())
	}
	return pkg, nil
}

type generator struct {
	language string
	generate func(pkg *schema.Package) (map[string][]byte, error)
	// Where the generator's file names start, under the language's folder, for a package of that name.
	root func(name string) string
}

var generators = []generator{
	{
		language: "python",
		generate: func(pkg *schema.Package) (map[string][]byte, error) {
			files, err := python.GeneratePackage(tool, pkg, nil, noLoader{})
			if err != nil {
				return nil, err
			}
			// pyproject.toml names a README.md beside it, and the generator writes one only into the package's
			// folder: a source distribution built without it has no description.
			readme := path.Join(pkg.Language["python"].(python.PackageInfo).PackageName, "README.md")
			text, ok := files[readme]
			if !ok {
				return nil, fmt.Errorf("the Python generator wrote no %s", readme)
			}
			files["README.md"] = text
			return files, nil
		},
		root: func(name string) string { return name },
	},
	{
		language: "go",
		// The Go generator names its files from the module's folder (`runtask/runTask.go`, `.gitattributes`): both
		// packages' folders share one module, <dir>/go.
		generate: func(pkg *schema.Package) (map[string][]byte, error) {
			return gogen.GeneratePackage(tool, pkg, nil)
		},
		root: func(string) string { return "" },
	},
	{
		language: "nodejs",
		// As `pulumi package add` writes a local SDK: the package compiles itself when installed (its postinstall
		// runs tsc), so that `npm install <folder>` is all a program needs.
		generate: func(pkg *schema.Package) (map[string][]byte, error) {
			files, err := nodejs.GeneratePackage(tool, pkg, nil, nil, true, noLoader{})
			if err != nil {
				return nil, err
			}
			for name, text := range files {
				if strings.HasSuffix(name, ".ts") {
					files[name] = withoutIdleImports(name, text)
				}
			}
			return files, nil
		},
		root: func(name string) string { return name },
	},
}

// namespaceImport is a line `import * as <name> from "<relative path>";` as the Node.js generator writes it.
var namespaceImport = regexp.MustCompile(`(?m)^import \* as (\w+) from "(\.[^"]*)";\n`)

// withoutIdleImports drops the namespace imports a generated TypeScript file does not use, and its import of
// itself, naming its own types unqualified: the generator writes `inputs` and `outputs` into every file that might
// want them, types/input.ts and types/output.ts included, which makes the two import each other and themselves.
func withoutIdleImports(name string, text []byte) []byte {
	src := string(text)
	for _, m := range namespaceImport.FindAllStringSubmatch(src, -1) {
		line, alias, spec := m[0], m[1], m[2]
		rest := strings.Replace(src, line, "", 1)
		qualified := regexp.MustCompile(`\b` + alias + `\.`)
		named := regexp.MustCompile(`\b` + alias + `\b`)
		switch {
		case path.Join(path.Dir(name), spec)+".ts" == name:
			if unqualified := qualified.ReplaceAllString(rest, ""); !named.MatchString(unqualified) {
				src = unqualified
			}
		case !named.MatchString(rest):
			src = rest
		}
	}
	return []byte(src)
}

func run(out string, schemas []string) error {
	for _, file := range schemas {
		for _, g := range generators {
			pkg, err := bind(file)
			if err != nil {
				return err
			}
			files, err := g.generate(pkg)
			if err != nil {
				return fmt.Errorf("%s SDK of %s: %w", g.language, pkg.Name, err)
			}
			root := filepath.Join(out, g.language, g.root(pkg.Name))
			if err := os.RemoveAll(filepath.Join(out, g.language, pkg.Name)); err != nil {
				return err
			}
			names := make([]string, 0, len(files))
			for name := range files {
				if !filepath.IsLocal(name) || g.language == "go" && name == "go.mod" {
					return fmt.Errorf("%s SDK of %s: the generator wrote %s, which is not ours to write", g.language, pkg.Name, name)
				}
				names = append(names, name)
			}
			sort.Strings(names)
			for _, name := range names {
				file := filepath.Join(root, name)
				if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
					return err
				}
				if err := os.WriteFile(file, files[name], 0o644); err != nil {
					return err
				}
			}
			fmt.Printf("%s SDK of %s: %d files\n", g.language, pkg.Name, len(names))
		}
	}
	return nil
}

func main() {
	out := flag.String("out", "", "the folder the SDKs go to")
	flag.Parse()
	if *out == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: sdkgen -out <dir> <schema.json>...")
		os.Exit(2)
	}
	if err := run(*out, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
