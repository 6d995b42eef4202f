package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/xeipuuv/gojsonschema"

	"github.com/vetter-dev/vetter/report"
)

// The JSON contract of summary --json and queue --json is written down as a
// JSON Schema in docs/ (summary.schema.json, queue.schema.json), made from
// the Go types that are encoded, so the schema cannot miss a field. The
// omission rule is the types' own: a field tagged omitempty may be absent
// (it is left out when it has nothing to say: empty, zero, null); every
// other field is always present, null where the type is a pointer, slice or
// map with nothing in it. schema_version is always present. Run with
// -update to rewrite the files after changing the types; the test fails
// when they differ, and validates real outputs against them.

func TestJSONSchemas(t *testing.T) {
	for _, c := range []struct {
		file, title string
		v           any
	}{
		{"summary.schema.json", "vetter summary --json", report.Summary{}},
		{"queue.schema.json", "vetter queue --json", []report.QueueRow{}},
	} {
		s := schemaOf(reflect.TypeOf(c.v))
		s["$schema"] = "http://json-schema.org/draft-07/schema#"
		s["$id"] = "https://github.com/vetter-dev/vetter/docs/" + c.file
		s["title"] = c.title
		got, err := json.MarshalIndent(s, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, '\n')
		path := filepath.Join("docs", c.file)
		if *update {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil || string(want) != string(got) {
			t.Errorf("%s is not the schema of the types (go test -run TestJSONSchemas -update): %v", path, err)
		}
	}
}

// validate checks doc against docs/NAME.
func validate(t *testing.T, name, doc string) {
	t.Helper()
	abs, err := filepath.Abs(filepath.Join("docs", name))
	if err != nil {
		t.Fatal(err)
	}
	res, err := gojsonschema.Validate(gojsonschema.NewReferenceLoader("file://"+filepath.ToSlash(abs)), gojsonschema.NewStringLoader(doc))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for _, e := range res.Errors() {
		t.Errorf("%s: %s", name, e)
	}
}

// Every summary --json this suite can make (a plain packet, two rounds with
// decisions, a pull request) and a queue --json are valid under the schemas.
func TestOutputsMatchTheirSchemas(t *testing.T) {
	validate(t, "summary.schema.json", mustRun(t, "summary", samplePacketDir(t, "", nil), "--json"))
	decideBothRounds(t)
	validate(t, "summary.schema.json", mustRun(t, "summary", dynRound1, "--json"))
	validate(t, "summary.schema.json", mustRun(t, "summary", dynRound2, "--json"))
	fakeGitHub(t)
	out := mustRun(t, "summary", fixturePR, "--json")
	if !strings.Contains(out, `"source"`) {
		t.Fatalf("a pull request's summary has no source:\n%s", out)
	}
	validate(t, "summary.schema.json", out)
	queue := mustRun(t, "queue", "acme/depot", "--json")
	if !strings.Contains(queue, `"schema_version": 1`) {
		t.Errorf("queue rows carry no schema_version:\n%s", queue)
	}
	validate(t, "queue.schema.json", queue)
}

func TestSchemaRefusesUnknownFields(t *testing.T) {
	abs, _ := filepath.Abs(filepath.Join("docs", "summary.schema.json"))
	doc := strings.Replace(mustRun(t, "summary", samplePacketDir(t, "", nil), "--json"), `"schema_version": 1,`, `"schema_version": 1, "surprise": true,`, 1)
	res, err := gojsonschema.Validate(gojsonschema.NewReferenceLoader("file://"+filepath.ToSlash(abs)), gojsonschema.NewStringLoader(doc))
	if err != nil || res.Valid() {
		t.Errorf("a field the contract does not have passed: %v", err)
	}
}

var timeType = reflect.TypeOf(time.Time{})

// schemaOf is the JSON Schema of what encoding/json writes for a value of t.
func schemaOf(t reflect.Type) map[string]any {
	switch {
	case t == timeType:
		return map[string]any{"type": "string", "format": "date-time"}
	case t == reflect.TypeOf(json.RawMessage{}):
		return map[string]any{}
	case t.Implements(reflect.TypeOf((*json.Marshaler)(nil)).Elem()):
		return map[string]any{} // its own encoding: any JSON
	}
	switch t.Kind() {
	case reflect.Pointer:
		return nullable(schemaOf(t.Elem()))
	case reflect.Struct:
		props := map[string]any{}
		var required []string
		addFields(t, props, &required)
		slices.Sort(required)
		s := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
		if len(required) > 0 {
			s["required"] = required
		}
		return s
	case reflect.Slice, reflect.Array:
		return nullable(map[string]any{"type": "array", "items": schemaOf(t.Elem())})
	case reflect.Map:
		return nullable(map[string]any{"type": "object", "additionalProperties": schemaOf(t.Elem())})
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer"}
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.Interface:
		return map[string]any{}
	}
	panic(fmt.Sprintf("schemaOf: %s", t))
}

func addFields(t reflect.Type, props map[string]any, required *[]string) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || !f.IsExported() && !f.Anonymous {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			et := f.Type
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				addFields(et, props, required)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		props[name] = schemaOf(f.Type)
		if !strings.Contains(opts, "omitempty") && !strings.Contains(opts, "omitzero") || name == "schema_version" {
			*required = append(*required, name)
		}
	}
}

func nullable(s map[string]any) map[string]any {
	if typ, ok := s["type"].(string); ok {
		out := map[string]any{}
		for k, v := range s {
			out[k] = v
		}
		out["type"] = []string{typ, "null"}
		return out
	}
	return map[string]any{"anyOf": []any{s, map[string]any{"type": "null"}}}
}
