package main

import (
	"context"
	"fmt"

	tfe "github.com/hashicorp/go-tfe"
)

// Plan is what `make` makes through the vendors' clients, for the cross-checks with the package's provider.
type Plan struct {
	Tasks []struct {
		Key         string  `json:"key"`
		Name        string  `json:"name"`
		URL         string  `json:"url"`
		Description *string `json:"description"`
		HMACKey     *string `json:"hmacKey"`
		Enabled     *bool   `json:"enabled"`
		Global      *struct {
			Enabled          bool        `json:"enabled"`
			Stages           []tfe.Stage `json:"stages"`
			EnforcementLevel string      `json:"enforcementLevel"`
		} `json:"global"`
	} `json:"tasks"`
	Associations []struct {
		Key              string      `json:"key"`
		Task             string      `json:"task"`
		Workspace        string      `json:"workspace"`
		EnforcementLevel string      `json:"enforcementLevel"`
		Stage            *tfe.Stage  `json:"stage"`
		Stages           []tfe.Stage `json:"stages"`
	} `json:"associations"`
	Configs []struct {
		Name string         `json:"name"`
		Data map[string]any `json:"data"`
	} `json:"configs"`
}

// Names is what `read` reads: tasks by id, associations by workspace and id, configurations by name.
type Names struct {
	Tasks        []string `json:"tasks"`
	Associations []struct {
		Workspace string `json:"workspace"`
		ID        string `json:"id"`
	} `json:"associations"`
	Configs []string `json:"configs"`
}

// makeObjects makes the plan's objects as a user of go-tfe and of Vault's client makes them, and answers their ids:
// `task:<key>`, `wstask:<key>`.
func makeObjects(ctx context.Context, s settings, plan Plan) (map[string]string, error) {
	ids := map[string]string{}
	if len(plan.Tasks)+len(plan.Associations) > 0 {
		client, err := tfeClient(s.runTaskAddr, s.runTaskToken)
		if err != nil {
			return nil, err
		}
		for _, t := range plan.Tasks {
			options := tfe.RunTaskCreateOptions{Name: t.Name, URL: t.URL, Category: "task", Description: t.Description, HMACKey: t.HMACKey, Enabled: t.Enabled}
			if t.Global != nil {
				options.Global = &tfe.GlobalRunTaskOptions{Enabled: tfe.Bool(t.Global.Enabled), Stages: &t.Global.Stages, EnforcementLevel: tfe.Ptr(tfe.TaskEnforcementLevel(t.Global.EnforcementLevel))}
			}
			made, err := client.RunTasks.Create(ctx, s.organization, options)
			if err != nil {
				return nil, fmt.Errorf("RunTasks.Create %s: %w", t.Name, err)
			}
			ids["task:"+t.Key] = made.ID
		}
		for _, a := range plan.Associations {
			options := tfe.WorkspaceRunTaskCreateOptions{EnforcementLevel: tfe.TaskEnforcementLevel(a.EnforcementLevel), RunTask: &tfe.RunTask{ID: ids["task:"+a.Task]}, Stage: a.Stage}
			if a.Stages != nil {
				options.Stages = &a.Stages
			}
			made, err := client.WorkspaceRunTasks.Create(ctx, a.Workspace, options)
			if err != nil {
				return nil, fmt.Errorf("WorkspaceRunTasks.Create %s: %w", a.Key, err)
			}
			ids["wstask:"+a.Key] = made.ID
		}
	}
	if len(plan.Configs) > 0 {
		client, err := vaultClient(s.snapshotAddr, s.snapshotToken)
		if err != nil {
			return nil, err
		}
		for _, c := range plan.Configs {
			if _, err := client.Logical().WriteWithContext(ctx, snapshotAuto+"/config/"+c.Name, c.Data); err != nil {
				return nil, fmt.Errorf("Logical().Write %s: %w", c.Name, err)
			}
		}
	}
	return ids, nil
}

// readObjects reads the objects named through the vendors' clients and answers what they see of each.
func readObjects(ctx context.Context, s settings, names Names) (map[string]any, error) {
	tasks := map[string]taskView{}
	associations := map[string]associationView{}
	configs := map[string]map[string]any{}
	if len(names.Tasks)+len(names.Associations) > 0 {
		client, err := tfeClient(s.runTaskAddr, s.runTaskToken)
		if err != nil {
			return nil, err
		}
		for _, id := range names.Tasks {
			t, err := client.RunTasks.Read(ctx, id)
			if err != nil {
				return nil, fmt.Errorf("RunTasks.Read %s: %w", id, err)
			}
			tasks[id] = viewOfTask(t)
		}
		for _, a := range names.Associations {
			got, err := client.WorkspaceRunTasks.Read(ctx, a.Workspace, a.ID)
			if err != nil {
				return nil, fmt.Errorf("WorkspaceRunTasks.Read %s/%s: %w", a.Workspace, a.ID, err)
			}
			associations[a.ID] = viewOfAssociation(got)
		}
	}
	if len(names.Configs) > 0 {
		client, err := vaultClient(s.snapshotAddr, s.snapshotToken)
		if err != nil {
			return nil, err
		}
		for _, name := range names.Configs {
			secret, err := client.Logical().ReadWithContext(ctx, snapshotAuto+"/config/"+name)
			if err != nil {
				return nil, fmt.Errorf("Logical().Read %s: %w", name, err)
			}
			if secret == nil {
				return nil, fmt.Errorf("Logical().Read %s: nothing there", name)
			}
			configs[name] = secret.Data
		}
	}
	return map[string]any{"tasks": tasks, "associations": associations, "configs": configs}, nil
}
