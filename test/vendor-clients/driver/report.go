package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
)

// Check is one statement about what a vendor's client got from the emulator, and whether it held.
type Check struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail,omitempty"`
}

// Report is what a subcommand prints: its checks, in order, and the ids of what it made.
type Report struct {
	Checks []Check           `json:"checks"`
	Made   map[string]string `json:"made,omitempty"`
}

func newReport() *Report { return &Report{Checks: []Check{}, Made: map[string]string{}} }

// True records a check that holds when ok; detail says what was seen otherwise.
func (r *Report) True(name string, ok bool, detail string, args ...any) bool {
	c := Check{Name: name, OK: ok}
	if !ok {
		c.Detail = fmt.Sprintf(detail, args...)
	}
	r.Checks = append(r.Checks, c)
	return ok
}

// NoError records a call that must succeed.
func (r *Report) NoError(name string, err error) bool {
	return r.True(name, err == nil, "error: %v", err)
}

// Fails records a call that must fail with an error for which is holds.
func (r *Report) Fails(name string, err error, is func(error) bool, want string) bool {
	return r.True(name, err != nil && is(err), "want %s, got error %v", want, err)
}

// FailsAs records a call that must fail with the error target (errors.Is).
func (r *Report) FailsAs(name string, err error, target error) bool {
	return r.Fails(name, err, func(e error) bool { return errors.Is(e, target) }, fmt.Sprintf("%q", target))
}

// Equal records that got and want are the same once both are read as JSON would read them.
func (r *Report) Equal(name string, got, want any) bool {
	g, w := plain(got), plain(want)
	return r.True(name, reflect.DeepEqual(g, w), "got %s, want %s", text(g), text(w))
}

// plain is v as JSON reads it back: maps, lists, strings, float64 numbers, booleans and nulls.
func plain(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("(not JSON: %v)", err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		return fmt.Sprintf("(not JSON: %v)", err)
	}
	return out
}

func text(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
