package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	vault "github.com/hashicorp/vault/api"
)

// snapshotAuto is where the automated snapshot endpoints live, under /v1.
const snapshotAuto = "sys/storage/raft/snapshot-auto"

// vaultClient is Vault's Go client of the emulator, made as the vault CLI makes one (its environment read first).
func vaultClient(addr, token string) (*vault.Client, error) {
	config := vault.DefaultConfig()
	config.Address = addr
	client, err := vault.NewClient(config)
	if err != nil {
		return nil, err
	}
	client.SetToken(token)
	return client, nil
}

// vaultCalls writes and lists as Vault's client does (PUT, GET ?list=true), or, against the spec's letter, which
// refuses both, with the POST and LIST the spec lists, sent through the client's raw requests.
type vaultCalls struct {
	client *vault.Client
	letter bool
}

func (v vaultCalls) write(ctx context.Context, path string, data map[string]any) error {
	if !v.letter {
		_, err := v.client.Logical().WriteWithContext(ctx, path, data)
		return err
	}
	req := v.client.NewRequest("POST", "/v1/"+path)
	if err := req.SetJSONBody(data); err != nil {
		return err
	}
	resp, err := v.client.RawRequestWithContext(ctx, req)
	if resp != nil {
		resp.Body.Close()
	}
	return err
}

func (v vaultCalls) list(ctx context.Context) (*vault.Secret, error) {
	if !v.letter {
		return v.client.Logical().ListWithContext(ctx, snapshotAuto+"/config")
	}
	resp, err := v.client.RawRequestWithContext(ctx, v.client.NewRequest("LIST", "/v1/"+snapshotAuto+"/config"))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return vault.ParseSecret(resp.Body)
}

// writeCall names the call a write is made with.
func (v vaultCalls) writeCall() string {
	if v.letter {
		return "a POST"
	}
	return "Logical().Write"
}

// status is the service's answer of status (0: no answer) and its messages, from a client's error.
func status(err error) (int, []string) {
	var re *vault.ResponseError
	if errors.As(err, &re) {
		return re.StatusCode, re.Errors
	}
	return 0, nil
}

// refusedWith checks a call the service refuses with `code`, one of its messages containing `message`.
func refusedWith(r *Report, name string, err error, code int, message string) bool {
	got, messages := status(err)
	ok := got == code && strings.Contains(strings.Join(messages, "\n"), message)
	return r.True(name, ok, "want %d with %q, got %v", code, message, err)
}

// snapshotCalls makes every call of the automated snapshot endpoints Vault's client makes, on a service that holds
// no configuration yet, and checks what each answers; the vendor's names throughout.
func snapshotCalls(ctx context.Context, s settings) (*Report, error) {
	r := newReport()
	client, err := vaultClient(s.snapshotAddr, s.snapshotToken)
	if err != nil {
		return nil, err
	}
	v := vaultCalls{client: client, letter: s.letter}
	config := func(name string) string { return snapshotAuto + "/config/" + name }
	read := func(name string) (map[string]any, error) {
		secret, err := client.Logical().ReadWithContext(ctx, config(name))
		if err != nil || secret == nil {
			return nil, err
		}
		return secret.Data, nil
	}
	if s.letter {
		_, err := client.Logical().WriteWithContext(ctx, config("refused"), map[string]any{"interval": 60, "path_prefix": "p", "storage_type": "local", "local_max_space": 1})
		refusedWith(r, "Logical().Write (a PUT) is refused: 405, as the spec lists POST alone", err, 405, "unsupported operation")
		_, err = client.Logical().ListWithContext(ctx, snapshotAuto+"/config")
		refusedWith(r, "Logical().List (a GET ?list=true) is refused: 405, as the spec lists with LIST alone", err, 405, "unsupported operation")
	}

	// Writes of each storage type, with and without credentials, read back.
	written := map[string]map[string]any{
		"local-daily": {"interval": "24h", "path_prefix": s.snapshotDir, "storage_type": "local", "local_max_space": 1048576},
		"s3-keys": {
			"interval": 3600, "retain": 7, "path_prefix": "raft/", "file_prefix": "cluster-a", "storage_type": "aws-s3",
			"aws_s3_bucket": "snapshots", "aws_s3_region": "eu-west-1", "aws_access_key_id": "AKIAGOCLIENT0",
			"aws_secret_access_key": "go-client-secret", "aws_session_token": "go-client-session",
			"aws_s3_endpoint": "https://s3.example.com", "aws_s3_force_path_style": true, "aws_s3_disable_tls": false,
			"aws_s3_enable_kms": true, "aws_s3_kms_key": "alias/snapshots",
		},
		"s3-chain": {"interval": "90m", "path_prefix": "raft", "storage_type": "aws-s3", "aws_s3_bucket": "snapshots", "aws_s3_region": "us-east-1", "aws_s3_server_side_encryption": true},
		"blob-shared": {
			"interval": "6h", "path_prefix": "raft/", "storage_type": "azure-blob", "azure_container_name": "snapshots",
			"azure_account_name": "account", "azure_auth_mode": "shared", "azure_account_key": "go-client-account-key",
			"azure_blob_environment": "AZUREPUBLICCLOUD", "azure_endpoint": "https://blob.example.com",
		},
		"blob-managed": {"interval": 600, "path_prefix": "raft/", "storage_type": "azure-blob", "azure_container_name": "snapshots", "azure_auth_mode": "managed", "azure_client_id": "client-id"},
		"gcs-key": {
			"interval": "12h", "path_prefix": "raft/", "storage_type": "google-gcs", "google_gcs_bucket": "snapshots",
			"google_service_account_key": `{"type":"service_account","private_key":"go-client-private-key"}`,
			"google_endpoint":            "https://gcs.example.com", "google_disable_tls": false,
		},
		"gcs-chain": {"interval": "12h", "path_prefix": "raft/", "storage_type": "google-gcs", "google_gcs_bucket": "snapshots"},
	}
	readBack := map[string]map[string]any{
		"local-daily": {"interval": 86400, "retain": 1, "file_prefix": "vault-snapshot", "path_prefix": s.snapshotDir, "storage_type": "local", "local_max_space": 1048576},
		"s3-chain":    {"interval": 5400, "retain": 1, "file_prefix": "vault-snapshot", "path_prefix": "raft", "storage_type": "aws-s3", "aws_s3_bucket": "snapshots", "aws_s3_region": "us-east-1", "aws_s3_server_side_encryption": true},
	}
	order := []struct{ name, what string }{
		{"local-daily", "of a local configuration, its interval a duration, retain and file_prefix left to their defaults"},
		{"s3-keys", "of an aws-s3 configuration with every credential and setting, its interval in seconds"},
		{"s3-chain", "of an aws-s3 configuration without credentials (the default credential chain)"},
		{"blob-shared", "of an azure-blob configuration with an account key (shared)"},
		{"blob-managed", "of an azure-blob configuration with a client id (managed)"},
		{"gcs-key", "of a google-gcs configuration with a service account key"},
		{"gcs-chain", "of a google-gcs configuration without credentials"},
	}
	for _, w := range order {
		if !r.NoError(fmt.Sprintf("%s %s", v.writeCall(), w.what), v.write(ctx, config(w.name), written[w.name])) {
			return r, nil
		}
		data, err := read(w.name)
		want, ok := readBack[w.name]
		if !ok {
			want = map[string]any{"retain": 1, "file_prefix": "vault-snapshot"}
			for k, value := range written[w.name] {
				want[k] = value
			}
			want["interval"] = map[string]any{"s3-keys": 3600, "blob-shared": 21600, "blob-managed": 600, "gcs-key": 43200, "gcs-chain": 43200}[w.name]
		}
		if r.NoError("Logical().Read of "+w.name, err) {
			r.Equal(w.name+" reads back every field as written, the interval in seconds, the defaults filled in", data, want)
		}
	}
	if keys, err := v.list(ctx); r.NoError("list the configurations", err) && r.True("the list answers", keys != nil, "no data") {
		r.Equal("the list gives every name, sorted", keys.Data["keys"], []string{"blob-managed", "blob-shared", "gcs-chain", "gcs-key", "local-daily", "s3-chain", "s3-keys"})
	}

	// A write again replaces the configuration.
	again := map[string]any{"interval": 3600, "retain": 3, "path_prefix": "raft/", "storage_type": "aws-s3", "aws_s3_bucket": "snapshots", "aws_s3_region": "eu-west-1", "aws_access_key_id": "AKIAGOCLIENT1", "aws_secret_access_key": "go-client-secret-1"}
	if r.NoError(v.writeCall()+" again of s3-keys, without its session token and settings", v.write(ctx, config("s3-keys"), again)) {
		data, err := read("s3-keys")
		want := map[string]any{"file_prefix": "vault-snapshot"}
		for k, value := range again {
			want[k] = value
		}
		if r.NoError("Logical().Read of s3-keys again", err) {
			r.Equal("the write replaced it: what it left out is gone", data, want)
		}
	}

	// A real snapshot, and its status.
	every := map[string]any{"interval": "1s", "retain": 2, "path_prefix": s.snapshotDir, "file_prefix": "go-client", "storage_type": "local", "local_max_space": 1048576}
	if r.NoError(v.writeCall()+" of a local configuration snapshotted every second", v.write(ctx, config("every-second"), every)) {
		var st map[string]any
		deadline := time.Now().Add(20 * time.Second)
		for time.Now().Before(deadline) {
			secret, err := client.Logical().ReadWithContext(ctx, snapshotAuto+"/status/every-second")
			if err != nil {
				r.NoError("Logical().Read of its status", err)
				break
			}
			if secret != nil && secret.Data["last_snapshot_url"] != "" {
				st = secret.Data
				break
			}
			time.Sleep(200 * time.Millisecond)
		}
		if r.True("Logical().Read of its status shows a snapshot taken within 20 s", st != nil, "no snapshot") {
			url, _ := st["last_snapshot_url"].(string)
			file := strings.TrimPrefix(url, "file://")
			_, statErr := os.Stat(file)
			r.True("the status names the snapshot file, file://<path_prefix>/go-client-<n>.snap, and it is there",
				strings.HasPrefix(url, "file://") && filepath.Dir(file) == s.snapshotDir && strings.HasPrefix(filepath.Base(file), "go-client-") &&
					strings.HasSuffix(file, ".snap") && statErr == nil, "url %q, stat %v", url, statErr)
			times := true
			for _, k := range []string{"last_snapshot_start", "last_snapshot_end", "snapshot_start"} {
				if text, _ := st[k].(string); text == "" {
					times = false
				} else if _, err := time.Parse(time.RFC3339, text); err != nil {
					times = false
				}
			}
			r.True("its times are RFC 3339 with an offset, and its error empty", times && st["last_snapshot_error"] == "", "status %s", text(st))
		}
		r.NoError("Logical().Delete of the configuration snapshotted every second", func() error {
			_, err := client.Logical().DeleteWithContext(ctx, config("every-second"))
			return err
		}())
	}

	// The root namespace alone.
	inTeam := client.WithNamespace("team-a")
	_, err = inTeam.Logical().WriteWithContext(ctx, config("team"), written["gcs-chain"])
	if s.letter {
		refusedWith(r, "a write from the namespace team-a: 404 unsupported path, the endpoints being the root namespace's alone", err, 404, "unsupported path")
	} else {
		refusedWith(r, "Logical().Write from the namespace team-a: 404 unsupported path, the endpoints being the root namespace's alone", err, 404, "unsupported path")
	}
	teamRead, err := inTeam.Logical().ReadWithContext(ctx, config("gcs-chain"))
	r.True("Logical().Read from team-a finds nothing (the client reads that 404 as no secret)", err == nil && teamRead == nil, "got %v, %v", teamRead, err)

	// Refusals.
	err = v.write(ctx, config("bad"), map[string]any{"interval": "1h", "storage_type": "local", "local_max_space": 1})
	refusedWith(r, "a write without path_prefix: 400, the service's message", err, 400, "path_prefix is required")
	err = v.write(ctx, config("bad"), map[string]any{"interval": "1h", "path_prefix": "p", "storage_type": "aws-s3", "aws_s3_region": "r"})
	refusedWith(r, "a write of aws-s3 without its bucket: 400 naming aws_s3_bucket", err, 400, "aws_s3_bucket is required for storage_type=aws-s3")
	err = v.write(ctx, config("bad"), map[string]any{"interval": "1h", "path_prefix": "p", "storage_type": "aws-s3", "aws_s3_bucket": "b", "aws_s3_region": "r", "cloudA_s3_endpoint": "x"})
	refusedWith(r, "a write with a field in the spec's neutral names: 400, unknown to the vendor's", err, 400, "unknown field cloudA_s3_endpoint for storage_type=aws-s3")
	err = v.write(ctx, config("bad"), map[string]any{"interval": "1h", "path_prefix": "p", "storage_type": "azure-blob", "azure_container_name": "c"})
	refusedWith(r, `a write of azure-blob whose path_prefix has no trailing "/": 400`, err, 400, `path_prefix must end with "/" for storage_type=azure-blob`)
	if wrong, err := vaultClient(s.snapshotAddr, "not-a-token"); r.NoError("a client with a wrong token", err) {
		_, err = wrong.Logical().ReadWithContext(ctx, config("local-daily"))
		refusedWith(r, "a call with a wrong token: 403 permission denied", err, 403, "permission denied")
	}
	missing, err := client.Logical().ReadWithContext(ctx, config("none"))
	r.True("Logical().Read of a configuration not there finds nothing, with no error", err == nil && missing == nil, "got %v, %v", missing, err)

	// Delete.
	_, err = client.Logical().DeleteWithContext(ctx, config("gcs-chain"))
	if r.NoError("Logical().Delete", err) {
		gone, err := client.Logical().ReadWithContext(ctx, config("gcs-chain"))
		r.True("the configuration is gone: its read finds nothing", err == nil && gone == nil, "got %v, %v", gone, err)
		if keys, err := v.list(ctx); r.NoError("list the configurations after the delete", err) && keys != nil {
			r.Equal("the list no longer names it", keys.Data["keys"], []string{"blob-managed", "blob-shared", "gcs-key", "local-daily", "s3-chain", "s3-keys"})
		}
		_, err = client.Logical().DeleteWithContext(ctx, config("gcs-chain"))
		code, messages := status(err)
		r.True("a second Logical().Delete: 404 with an empty error list, the service's answer for a name it does not hold", code == 404 && len(messages) == 0, "got %v", err)
	}
	return r, nil
}
