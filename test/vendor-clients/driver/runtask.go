package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	tfe "github.com/hashicorp/go-tfe"
)

// tfeClient is go-tfe's client of the emulator, made as a tool built on go-tfe makes one.
func tfeClient(addr, token string) (*tfe.Client, error) {
	config := tfe.DefaultConfig()
	config.Address = addr
	config.Token = token
	return tfe.NewClient(config)
}

// taskView is what a task answer says, as go-tfe decodes it.
type taskView struct {
	Name         string      `json:"name"`
	URL          string      `json:"url"`
	Description  string      `json:"description"`
	Category     string      `json:"category"`
	Enabled      bool        `json:"enabled"`
	HMACKey      *string     `json:"hmacKey"`
	Global       *globalView `json:"global"`
	Organization string      `json:"organization"`
}

// globalView is a task's global settings, as go-tfe decodes them.
type globalView struct {
	Enabled          bool                     `json:"enabled"`
	Stages           []tfe.Stage              `json:"stages"`
	EnforcementLevel tfe.TaskEnforcementLevel `json:"enforcementLevel"`
}

func viewOfTask(t *tfe.RunTask) taskView {
	v := taskView{Name: t.Name, URL: t.URL, Description: t.Description, Category: t.Category, Enabled: t.Enabled, HMACKey: t.HMACKey}
	if t.Global != nil {
		v.Global = &globalView{Enabled: t.Global.Enabled, Stages: t.Global.Stages, EnforcementLevel: t.Global.EnforcementLevel}
	}
	if t.Organization != nil {
		v.Organization = t.Organization.Name
	}
	return v
}

// associationView is what an association answer says, as go-tfe decodes it.
type associationView struct {
	EnforcementLevel tfe.TaskEnforcementLevel `json:"enforcementLevel"`
	Stage            tfe.Stage                `json:"stage"`
	Stages           []tfe.Stage              `json:"stages"`
	Task             string                   `json:"task"`
	Workspace        string                   `json:"workspace"`
}

func viewOfAssociation(a *tfe.WorkspaceRunTask) associationView {
	v := associationView{EnforcementLevel: a.EnforcementLevel, Stage: a.Stage, Stages: a.Stages}
	if a.RunTask != nil {
		v.Task = a.RunTask.ID
	}
	if a.Workspace != nil {
		v.Workspace = a.Workspace.ID
	}
	return v
}

func global(enabled bool, level tfe.TaskEnforcementLevel, stages ...tfe.Stage) *globalView {
	if stages == nil {
		stages = []tfe.Stage{}
	}
	return &globalView{Enabled: enabled, EnforcementLevel: level, Stages: stages}
}

// associated checks a call that makes an association. As the real service answers, it gives the association; to the
// spec's letter (a 204 with no body) go-tfe fails to decode the answer, though the association was made: the
// workspace's list then gives it.
func associated(ctx context.Context, r *Report, s settings, client *tfe.Client, call string, made *tfe.WorkspaceRunTask, err error, workspace, task string) *tfe.WorkspaceRunTask {
	if !s.letter {
		if !r.NoError(call, err) {
			return nil
		}
		return made
	}
	r.True(call+" fails with EOF: the spec's 204 has no document to decode", err != nil && strings.Contains(err.Error(), "EOF"), "got %v", err)
	found, lerr := associationOf(ctx, client, workspace, task)
	if !r.True(call+" made the association all the same: the workspace's list shows it", lerr == nil && found != nil, "list: %v", lerr) {
		return nil
	}
	return found
}

// associationOf is the association of task in workspace, from every page of the workspace's list.
func associationOf(ctx context.Context, client *tfe.Client, workspace, task string) (*tfe.WorkspaceRunTask, error) {
	for page := 1; page != 0; {
		list, err := client.WorkspaceRunTasks.List(ctx, workspace, &tfe.WorkspaceRunTaskListOptions{ListOptions: tfe.ListOptions{PageNumber: page}})
		if err != nil {
			return nil, err
		}
		for _, a := range list.Items {
			if a.RunTask != nil && a.RunTask.ID == task {
				return a, nil
			}
		}
		page = list.NextPage
	}
	return nil, nil
}

// runTaskCalls makes every run task and association call go-tfe has, in an organization that holds no task yet, and
// checks what each answers. The ids of the tasks it leaves are in Made, for the caller to check the keys the service
// holds (which no answer shows).
func runTaskCalls(ctx context.Context, s settings) (*Report, error) {
	r := newReport()
	if len(s.workspaces) < 3 {
		return nil, errors.New("-workspaces: three workspace ids are needed")
	}
	client, err := tfeClient(s.runTaskAddr, s.runTaskToken)
	if err != nil {
		return nil, err
	}
	org, ws1, ws2, ws3 := s.organization, s.workspaces[0], s.workspaces[1], s.workspaces[2]
	r.Equal("NewClient reads the service's API version from its ping", client.RemoteAPIVersion(), "2.6")

	// Tasks: create with every attribute, and with the required ones alone.
	scanner, err := client.RunTasks.Create(ctx, org, tfe.RunTaskCreateOptions{
		Name:        "gotfe-scanner",
		URL:         "https://hooks.example.com/scan",
		Category:    "task",
		Description: tfe.String("Scans every plan"),
		HMACKey:     tfe.String("gotfe-hmac-key"),
		Enabled:     tfe.Bool(false),
		Global: &tfe.GlobalRunTaskOptions{
			Enabled:          tfe.Bool(true),
			Stages:           &[]tfe.Stage{tfe.PrePlan, tfe.PostPlan},
			EnforcementLevel: tfe.Ptr(tfe.Mandatory),
		},
	})
	if !r.NoError("RunTasks.Create with a description, an HMAC key, enabled false and global settings", err) {
		return r, nil
	}
	r.Made["task:scanner"] = scanner.ID
	want := taskView{
		Name: "gotfe-scanner", URL: "https://hooks.example.com/scan", Description: "Scans every plan", Category: "task",
		Global: global(true, tfe.Mandatory, tfe.PrePlan, tfe.PostPlan), Organization: org,
	}
	r.Equal("its answer carries every attribute as sent, the key as null", viewOfTask(scanner), want)

	minimal, err := client.RunTasks.Create(ctx, org, tfe.RunTaskCreateOptions{Name: "gotfe-minimal", URL: "https://hooks.example.com/minimal", Category: "task"})
	if !r.NoError("RunTasks.Create with the required attributes alone", err) {
		return r, nil
	}
	r.Made["task:minimal"] = minimal.ID
	r.Equal("its answer carries the defaults: enabled, no description, global settings off", viewOfTask(minimal), taskView{
		Name: "gotfe-minimal", URL: "https://hooks.example.com/minimal", Category: "task", Enabled: true, Global: global(false, ""), Organization: org,
	})

	// A list through several pages.
	var paged []string
	for i := 1; i <= 3; i++ {
		t, err := client.RunTasks.Create(ctx, org, tfe.RunTaskCreateOptions{Name: fmt.Sprintf("gotfe-page-%d", i), URL: "https://hooks.example.com/p", Category: "task"})
		if err != nil {
			r.NoError("RunTasks.Create of the tasks to page through", err)
			return r, nil
		}
		paged = append(paged, t.ID)
	}
	var names []string
	var pages []int
	var last *tfe.Pagination
	for page := 1; page != 0 && len(pages) < 10; {
		list, err := client.RunTasks.List(ctx, org, &tfe.RunTaskListOptions{ListOptions: tfe.ListOptions{PageNumber: page, PageSize: 2}})
		if !r.NoError(fmt.Sprintf("RunTasks.List, page %d of 2 tasks", page), err) {
			return r, nil
		}
		for _, t := range list.Items {
			names = append(names, t.Name)
		}
		pages = append(pages, list.CurrentPage)
		last = list.Pagination
		page = list.NextPage
	}
	r.Equal("RunTasks.List followed through its pages gives every task once, in the order made", names,
		[]string{"gotfe-scanner", "gotfe-minimal", "gotfe-page-1", "gotfe-page-2", "gotfe-page-3"})
	r.Equal("its pagination: pages 1 to 3, 5 tasks", map[string]any{"pages": pages, "totalPages": last.TotalPages, "totalCount": last.TotalCount},
		map[string]any{"pages": []int{1, 2, 3}, "totalPages": 3, "totalCount": 5})

	// Associations: attach, and create with the deprecated stage and with stages.
	attachedRaw, err := client.RunTasks.AttachToWorkspace(ctx, ws1, scanner.ID, tfe.Advisory)
	attached := associated(ctx, r, s, client, "RunTasks.AttachToWorkspace", attachedRaw, err, ws1, scanner.ID)
	if attached == nil {
		return r, nil
	}
	r.Equal("the association: advisory, the stage post_plan by default", viewOfAssociation(attached),
		associationView{tfe.Advisory, tfe.PostPlan, []tfe.Stage{tfe.PostPlan}, scanner.ID, ws1})
	r.Made["wstask:scanner-1"] = attached.ID

	byStageRaw, err := client.WorkspaceRunTasks.Create(ctx, ws2, tfe.WorkspaceRunTaskCreateOptions{
		EnforcementLevel: tfe.Mandatory, RunTask: &tfe.RunTask{ID: scanner.ID}, Stage: tfe.Ptr(tfe.PreApply),
	})
	byStage := associated(ctx, r, s, client, "WorkspaceRunTasks.Create with the deprecated stage", byStageRaw, err, ws2, scanner.ID)
	if byStage == nil {
		return r, nil
	}
	r.Equal("the stage given is its stages", viewOfAssociation(byStage), associationView{tfe.Mandatory, tfe.PreApply, []tfe.Stage{tfe.PreApply}, scanner.ID, ws2})

	byStagesRaw, err := client.WorkspaceRunTasks.Create(ctx, ws3, tfe.WorkspaceRunTaskCreateOptions{
		EnforcementLevel: tfe.Advisory, RunTask: &tfe.RunTask{ID: scanner.ID}, Stages: &[]tfe.Stage{tfe.PostPlan, tfe.PrePlan},
	})
	byStages := associated(ctx, r, s, client, "WorkspaceRunTasks.Create with stages", byStagesRaw, err, ws3, scanner.ID)
	if byStages == nil {
		return r, nil
	}
	r.Equal("the stages in the order sent, the stage their first", viewOfAssociation(byStages),
		associationView{tfe.Advisory, tfe.PostPlan, []tfe.Stage{tfe.PostPlan, tfe.PrePlan}, scanner.ID, ws3})

	secondRaw, err := client.RunTasks.AttachToWorkspace(ctx, ws1, minimal.ID, tfe.Mandatory)
	second := associated(ctx, r, s, client, "RunTasks.AttachToWorkspace of a second task to the workspace", secondRaw, err, ws1, minimal.ID)
	if second == nil {
		return r, nil
	}

	// Associations: list through pages, read.
	var ids []string
	for page := 1; page != 0 && len(ids) < 10; {
		list, err := client.WorkspaceRunTasks.List(ctx, ws1, &tfe.WorkspaceRunTaskListOptions{ListOptions: tfe.ListOptions{PageNumber: page, PageSize: 1}})
		if !r.NoError(fmt.Sprintf("WorkspaceRunTasks.List, page %d of 1 association", page), err) {
			return r, nil
		}
		for _, a := range list.Items {
			ids = append(ids, a.ID)
		}
		page = list.NextPage
	}
	r.Equal("WorkspaceRunTasks.List followed through its pages gives both associations of the workspace", ids, []string{attached.ID, second.ID})
	read, err := client.WorkspaceRunTasks.Read(ctx, ws3, byStages.ID)
	if r.NoError("WorkspaceRunTasks.Read", err) {
		r.Equal("it reads as made, its task and workspace named", viewOfAssociation(read), viewOfAssociation(byStages))
	}

	// Tasks: read, and read with includes.
	shown, err := client.RunTasks.Read(ctx, scanner.ID)
	if r.NoError("RunTasks.Read", err) {
		r.Equal("it reads as made", viewOfTask(shown), want)
		r.Equal("it names its three associations", len(shown.WorkspaceRunTasks), 3)
	}
	included, err := client.RunTasks.ReadWithOptions(ctx, scanner.ID, &tfe.RunTaskReadOptions{Include: []tfe.RunTaskIncludeOpt{tfe.RunTaskWorkspaceTasks, tfe.RunTaskWorkspace}})
	if r.NoError("RunTasks.ReadWithOptions including workspace_tasks and workspace_tasks.workspace", err) {
		levels := map[string]string{}
		workspaces := map[string]bool{}
		for _, a := range included.WorkspaceRunTasks {
			levels[a.ID] = string(a.EnforcementLevel)
			if a.Workspace != nil {
				workspaces[a.Workspace.ID] = a.Workspace.Name != ""
			}
		}
		r.Equal("the associations included, with their enforcement levels", levels,
			map[string]string{attached.ID: "advisory", byStage.ID: "mandatory", byStages.ID: "advisory"})
		r.Equal("their workspaces included, with their names", workspaces, map[string]bool{ws1: true, ws2: true, ws3: true})
	}
	_, err = client.RunTasks.ReadWithOptions(ctx, scanner.ID, &tfe.RunTaskReadOptions{Include: []tfe.RunTaskIncludeOpt{"workspaces"}})
	r.FailsAs("RunTasks.ReadWithOptions with an include the service does not take: ErrInvalidIncludeValue", err, tfe.ErrInvalidIncludeValue)
	listed, err := client.RunTasks.List(ctx, org, &tfe.RunTaskListOptions{Include: []tfe.RunTaskIncludeOpt{tfe.RunTaskWorkspaceTasks}, ListOptions: tfe.ListOptions{PageSize: 1}})
	if r.NoError("RunTasks.List including workspace_tasks", err) {
		r.True("its first task's associations are included", len(listed.Items) == 1 && len(listed.Items[0].WorkspaceRunTasks) == 3 &&
			listed.Items[0].WorkspaceRunTasks[0].EnforcementLevel != "", "got %s", text(listed.Items))
	}

	// Tasks: partial updates keep every other attribute.
	updated, err := client.RunTasks.Update(ctx, scanner.ID, tfe.RunTaskUpdateOptions{Description: tfe.String("Scans every plan, and every apply")})
	want.Description = "Scans every plan, and every apply"
	if r.NoError("RunTasks.Update of the description alone", err) {
		r.Equal("every other attribute kept", viewOfTask(updated), want)
	}
	updated, err = client.RunTasks.Update(ctx, scanner.ID, tfe.RunTaskUpdateOptions{Enabled: tfe.Bool(true), Global: &tfe.GlobalRunTaskOptions{Stages: &[]tfe.Stage{tfe.PostApply}}})
	want.Enabled, want.Global = true, global(true, tfe.Mandatory, tfe.PostApply)
	if r.NoError("RunTasks.Update of enabled and the global stages alone", err) {
		r.Equal("every other attribute kept, the global enforcement level included", viewOfTask(updated), want)
	}
	updated, err = client.RunTasks.Update(ctx, minimal.ID, tfe.RunTaskUpdateOptions{HMACKey: tfe.String("gotfe-rotated-key"), Name: tfe.String("gotfe-renamed")})
	if r.NoError("RunTasks.Update of the name and the HMAC key alone", err) {
		r.Equal("every other attribute kept, the key as null", viewOfTask(updated), taskView{
			Name: "gotfe-renamed", URL: "https://hooks.example.com/minimal", Category: "task", Enabled: true, Global: global(false, ""), Organization: org,
		})
	}
	if reread, err := client.RunTasks.Read(ctx, scanner.ID); r.NoError("RunTasks.Read after the updates", err) {
		r.Equal("it reads as updated", viewOfTask(reread), want)
	}

	// Associations: partial updates keep every other attribute.
	u, err := client.WorkspaceRunTasks.Update(ctx, ws3, byStages.ID, tfe.WorkspaceRunTaskUpdateOptions{EnforcementLevel: tfe.Mandatory})
	if r.NoError("WorkspaceRunTasks.Update of the enforcement level alone", err) {
		r.Equal("its stages kept", viewOfAssociation(u), associationView{tfe.Mandatory, tfe.PostPlan, []tfe.Stage{tfe.PostPlan, tfe.PrePlan}, scanner.ID, ws3})
	}
	u, err = client.WorkspaceRunTasks.Update(ctx, ws3, byStages.ID, tfe.WorkspaceRunTaskUpdateOptions{Stages: &[]tfe.Stage{tfe.PreApply, tfe.PostApply}})
	if r.NoError("WorkspaceRunTasks.Update of the stages alone", err) {
		r.Equal("its enforcement level kept", viewOfAssociation(u), associationView{tfe.Mandatory, tfe.PreApply, []tfe.Stage{tfe.PreApply, tfe.PostApply}, scanner.ID, ws3})
	}
	u, err = client.WorkspaceRunTasks.Update(ctx, ws2, byStage.ID, tfe.WorkspaceRunTaskUpdateOptions{Stage: tfe.Ptr(tfe.PrePlan)})
	if r.NoError("WorkspaceRunTasks.Update of the deprecated stage alone", err) {
		r.Equal("the stage given is its stages", viewOfAssociation(u), associationView{tfe.Mandatory, tfe.PrePlan, []tfe.Stage{tfe.PrePlan}, scanner.ID, ws2})
	}

	// Errors.
	_, err = client.RunTasks.Read(ctx, "task-doesnotexist0000")
	r.FailsAs("RunTasks.Read of a task that does not exist: ErrResourceNotFound", err, tfe.ErrResourceNotFound)
	_, err = client.WorkspaceRunTasks.List(ctx, "ws-doesnotexist0000", nil)
	r.FailsAs("WorkspaceRunTasks.List of a workspace that does not exist: ErrResourceNotFound", err, tfe.ErrResourceNotFound)
	_, err = client.RunTasks.AttachToWorkspace(ctx, ws2, "task-doesnotexist0000", tfe.Advisory)
	r.FailsAs("RunTasks.AttachToWorkspace of a task that does not exist: ErrResourceNotFound", err, tfe.ErrResourceNotFound)
	contains := func(text string) func(error) bool {
		return func(e error) bool { return strings.Contains(e.Error(), text) }
	}
	_, err = client.RunTasks.Create(ctx, org, tfe.RunTaskCreateOptions{Name: "not a name!", URL: "https://hooks.example.com/x", Category: "task"})
	r.Fails("RunTasks.Create with a name the service refuses: its 422, as go-tfe words it", err, contains("invalid attribute\n\nName can only contain letters, numbers, dashes and underscores"), "the 422's title and detail")
	_, err = client.RunTasks.Create(ctx, org, tfe.RunTaskCreateOptions{Name: "gotfe-scanner", URL: "https://hooks.example.com/x", Category: "task"})
	r.Fails("RunTasks.Create of a name taken: its 422", err, contains("Name has already been taken"), "the 422 naming the name")
	_, err = client.WorkspaceRunTasks.Update(ctx, ws3, byStages.ID, tfe.WorkspaceRunTaskUpdateOptions{Stage: tfe.Ptr(tfe.PreApply)})
	r.Fails("WorkspaceRunTasks.Update with a stage an update does not take: its 422", err, contains("stage must be one of pre_plan, post_plan"), "the 422 naming the stages")
	wrong, err := tfeClient(s.runTaskAddr, "not-a-token")
	if r.NoError("tfe.NewClient with a wrong token", err) {
		_, err = wrong.RunTasks.List(ctx, org, nil)
		if s.letter {
			r.FailsAs("a call with a wrong token: ErrResourceNotFound (the spec's 404), not ErrUnauthorized", err, tfe.ErrResourceNotFound)
		} else {
			r.FailsAs("a call with a wrong token: ErrUnauthorized", err, tfe.ErrUnauthorized)
		}
	}

	// Deletes: an association, then a task; each gone after, a second delete a 404.
	err = client.WorkspaceRunTasks.Delete(ctx, ws2, byStage.ID)
	if r.NoError("WorkspaceRunTasks.Delete", err) {
		_, err = client.WorkspaceRunTasks.Read(ctx, ws2, byStage.ID)
		r.FailsAs("the association is gone: ErrResourceNotFound", err, tfe.ErrResourceNotFound)
		r.FailsAs("a second delete: ErrResourceNotFound", client.WorkspaceRunTasks.Delete(ctx, ws2, byStage.ID), tfe.ErrResourceNotFound)
	}
	err = client.RunTasks.Delete(ctx, paged[2])
	if r.NoError("RunTasks.Delete", err) {
		_, err = client.RunTasks.Read(ctx, paged[2])
		r.FailsAs("the task is gone: ErrResourceNotFound", err, tfe.ErrResourceNotFound)
		r.FailsAs("a second delete: ErrResourceNotFound", client.RunTasks.Delete(ctx, paged[2]), tfe.ErrResourceNotFound)
	}
	doomedRaw, err := client.RunTasks.AttachToWorkspace(ctx, ws2, paged[0], tfe.Advisory)
	if doomed := associated(ctx, r, s, client, "RunTasks.AttachToWorkspace of a task to delete", doomedRaw, err, ws2, paged[0]); doomed != nil {
		if r.NoError("RunTasks.Delete of a task with an association", client.RunTasks.Delete(ctx, paged[0])) {
			_, err = client.WorkspaceRunTasks.Read(ctx, ws2, doomed.ID)
			r.FailsAs("its association went with it: ErrResourceNotFound", err, tfe.ErrResourceNotFound)
		}
	}
	return r, nil
}
