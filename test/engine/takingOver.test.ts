import { engineSuite, scenarioEmulator } from "../support/engine/engineSuite";
import { ledger } from "../support/engine/serviceLedger";
import { nameOf } from "../support/engine/stateFile";
import { Switchboard } from "../support/switchboard";

/**
 * Taking over objects that exist, through the Pulumi engine, the service's objects counted after each step
 * (provider/takeover/proof.ts):
 * - an adopt, on a service that takes two tasks of one name: with two, it takes neither and names both, nothing
 *   written; with one, it takes it, keeping the HMAC key the program does not give (no read shows it);
 * - `pulumi import` by `<organization>/<name>` where two tasks share the name: refused naming both, nothing recorded;
 * - an association's update carried out and its answer lost: the state records what the service holds, so that the
 *   program put back to the old settings is an update, and the service follows it;
 * - through the plugins, an associate answered 201 with a document of another kind (a task's): the association made
 *   is looked up and recorded, and the destroy removes it; a task's update carried out and answered 200 with no
 *   document: the state records the service's settings, and the program put back is an update the service follows.
 */
jest.setTimeout(600_000);

const calls = new Switchboard();
const emulator = scenarioEmulator();
const suite = engineSuite({ calls, forgetBetweenTests: true, emulator: { ...emulator, runTask: { ...emulator.runTask, duplicates: "accept" } } });
const ws = (name: string) => suite.emulator.runTask.workspace(name).id;
const tasks = () => suite.emulator.runTask.tasks().map((t) => [t.id, t.url, suite.emulator.runTask.store.tasks.get(t.id)!.hmacKey]);
const writesCarriedOut = () => suite.emulator.requests.entries.filter((e) => e.method !== "GET" && e.status < 300).length;

test("dynamic: an adopt takes a task only when it is the only one of its name, and keeps the key the program does not give; an association's update whose answer is lost records what the service holds", async () => {
  const stack = suite.stack("inline", "taking-over");
  const ours = suite.emulator.runTask.addTask("acme", { name: "scanner", url: "https://hooks.example.com/old", hmacKey: "our-key-5e1d" });
  const theirs = suite.emulator.runTask.addTask("acme", { name: "scanner", url: "https://other-team.example.com/hook", hmacKey: "their-key-8c3a" });
  const program = (enforcementLevel: string) =>
    stack.program({
      resources: [
        { type: "RunTask", name: "scanner", args: { url: "https://hooks.example.com/scan", adopt: true } },
        { type: "WorkspaceRunTask", name: "on-app", args: { workspaceId: ws("app"), taskId: { $ref: "scanner" }, enforcementLevel } },
      ],
    });

  // Two of one name: neither is taken or changed, and the error names both.
  program("advisory");
  const before = tasks();
  suite.emulator.requests.reset();
  const refused = await stack.up();
  expect(refused.ok).toBe(false);
  const error = refused.diagnostics.find((d) => d.severity === "error" && d.urn && nameOf(d.urn) === "scanner")?.message ?? "";
  expect(error).toContain(`RunTask "scanner": adopt: there are 2 run tasks named "scanner" in organization "acme" (${ours.id}, ${theirs.id})`);
  expect(writesCarriedOut()).toBe(0);
  expect(tasks()).toEqual(before);
  expect(stack.state().resources.filter((r) => nameOf(r.urn) === "scanner")).toEqual([]);

  // The other team's task renamed at the service: the adopt takes ours, and keeps its key.
  suite.emulator.runTask.store.tasks.get(theirs.id)!.name = "other-team-scanner";
  const adopted = await stack.up();
  expect(adopted.error).toBeUndefined();
  expect(adopted.output).toContain("it does not write hmacKey, which no read shows: the task keeps its key");
  expect(stack.state().resources.find((r) => nameOf(r.urn) === "scanner")?.id).toBe(ours.id);
  expect(tasks()).toEqual([
    [ours.id, "https://hooks.example.com/scan", "our-key-5e1d"],
    [theirs.id, "https://other-team.example.com/hook", "their-key-8c3a"],
  ]);
  const [association] = suite.emulator.runTask.workspaceTasks();

  // The association's update carried out, its answer lost on every try: recorded as the service holds it.
  calls.answers.push((req, route) => (req.method === "PATCH" && route === "/api/v2/workspaces/:ws/tasks/:id" ? "dropAfter" : undefined));
  program("mandatory");
  const lost = await stack.up({}, { RUNTASK_MAX_RETRIES: "1" });
  expect(lost.ok).toBe(false);
  calls.reset();
  const recorded = stack.state().resources.find((r) => nameOf(r.urn) === "on-app");
  expect(recorded?.outputs?.enforcementLevel).toBe("mandatory");
  expect(suite.emulator.runTask.workspaceTasks()).toMatchObject([{ id: association.id, enforcementLevel: "mandatory" }]);

  // The program put back to the old setting: an update, which the service follows.
  program("advisory");
  suite.emulator.requests.reset();
  const back = await stack.up();
  expect(back.error).toBeUndefined();
  expect(back.changes).toMatchObject({ update: 1 });
  expect(suite.emulator.runTask.workspaceTasks()).toMatchObject([{ id: association.id, enforcementLevel: "advisory" }]);
  // The stack holds its task and association, once each; the other team's task is no resource's.
  expect(ledger(suite.emulator, stack)).toEqual({ stranded: [`RunTask ${theirs.id}`], lost: [], claimedTwice: [] });

  suite.emulator.requests.reset();
  expect((await stack.up()).changes).toEqual({ same: 3 });
  expect(writesCarriedOut()).toBe(0);
  expect((await stack.destroy()).error).toBeUndefined();
  expect(tasks()).toEqual([[theirs.id, "https://other-team.example.com/hook", "their-key-8c3a"]]);
  expect(suite.emulator.runTask.workspaceTasks()).toEqual([]);
});

test("plugins: pulumi import by <organization>/<name> where two tasks share it is refused naming both; by its task- id, taken", async () => {
  const stack = suite.stack("yaml", "importing-by-name");
  const a = suite.emulator.runTask.addTask("acme", { name: "gate", url: "https://hooks.example.com/gate" });
  const b = suite.emulator.runTask.addTask("acme", { name: "gate", url: "https://other.example.com/gate" });
  stack.yamlProgram("resources: {}\n");
  suite.emulator.requests.reset();
  const refused = await stack.import({ type: "runtask:index:RunTask", name: "gate", id: "acme/gate" });
  expect(refused.ok).toBe(false);
  expect(refused.output).toContain(`import "acme/gate": there are 2 run tasks named "gate" in organization "acme" (${a.id}, ${b.id})`);
  expect(writesCarriedOut()).toBe(0);
  expect(stack.state().resources.filter((r) => nameOf(r.urn) === "gate")).toEqual([]);

  const imported = await stack.import({ type: "runtask:index:RunTask", name: "gate", id: b.id });
  expect(imported.error).toBeUndefined();
  expect(stack.state().resources.find((r) => nameOf(r.urn) === "gate")?.id).toBe(b.id);
  expect(writesCarriedOut()).toBe(0);
});

test("plugins: an associate answered with a task's document records the association made, which destroy removes; a task's update answered with no document records what the service holds", async () => {
  const stack = suite.stack("yaml", "answers-of-another-kind");
  const program = (url: string) =>
    stack.yamlProgram(`resources:
  gate:
    type: runtask:index:RunTask
    properties:
      url: ${url}
  gate-on-app:
    type: runtask:index:WorkspaceRunTask
    properties:
      workspaceId: ${ws("app")}
      taskId: \${gate.id}
      enforcementLevel: mandatory
`);
  // The associate carried out at the service, and answered with the task's document rather than the association's.
  calls.answers.push((req, route) => {
    if (req.method !== "POST" || route !== "/api/v2/workspaces/:ws/tasks") return undefined;
    const taskId = (req.body as { data: { relationships: { task: { data: { id: string } } } } }).data.relationships.task.data.id;
    suite.emulator.runTask.addWorkspaceTask(req.params.ws, taskId, { enforcementLevel: "mandatory" });
    return { status: 201, body: { data: { id: taskId, type: "tasks", attributes: { name: "gate" } } }, contentType: "application/vnd.api+json" };
  });
  program("https://hooks.example.com/old");
  const created = await stack.up();
  expect(created.error).toBeUndefined();
  calls.reset();
  const [made] = suite.emulator.runTask.workspaceTasks();
  expect(suite.emulator.runTask.workspaceTasks()).toHaveLength(1);
  const association = stack.state().resources.find((r) => nameOf(r.urn) === "gate-on-app");
  expect([association?.id, association?.outputs?.workspaceTaskId]).toEqual([`${ws("app")}/${made.id}`, made.id]);

  // The PATCH carried out, and answered 200 with no document: recorded as the service holds it.
  calls.answers.push((req, route) => {
    if (req.method !== "PATCH" || route !== "/api/v2/tasks/:id") return undefined;
    suite.emulator.runTask.store.tasks.get(req.params.id)!.url = (req.body as { data: { attributes: { url: string } } }).data.attributes.url;
    return { status: 200 };
  });
  program("https://hooks.example.com/new");
  const unanswered = await stack.up();
  expect(unanswered.ok).toBe(false);
  calls.reset();
  expect(stack.state().resources.find((r) => nameOf(r.urn) === "gate")?.outputs?.url).toBe("https://hooks.example.com/new");
  program("https://hooks.example.com/old");
  const back = await stack.up();
  expect(back.error).toBeUndefined();
  expect(back.changes).toMatchObject({ update: 1 });
  expect(suite.emulator.runTask.tasks().map((t) => t.url)).toEqual(["https://hooks.example.com/old"]);

  expect((await stack.destroy()).error).toBeUndefined();
  expect(suite.emulator.runTask.workspaceTasks()).toEqual([]);
  expect(suite.emulator.runTask.tasks()).toEqual([]);
});
