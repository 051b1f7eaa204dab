/**
 * Cloud inference deployments: a project's deployments, their actions (each answered with its task, as
 * the platform does), and the lines their containers logged. A deployment's status is computed when it
 * is read, from its state and how long ago that was set; the lines an action logs are dated when they
 * happen, and shown once that moment has come.
 */
import {
  cloudInferenceDeploymentsRoutes,
  INFERENCE_TIMING,
  type CreateInferenceDeploymentFields,
  type InferenceDeployment,
  type UpdateInferenceDeploymentFields,
} from "@cloudplane/contract";
import { and, asc, count, desc, eq, inArray, lte, schema, sql, type Database, type InferenceContainerSpec } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { sqlState } from "../database-errors.js";
import { addFieldError, conflict, fieldErrors, notFound, problemCount, validationFailed } from "../errors.js";
import { isoTime } from "../format.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import { served } from "../served.js";
import { deletedBefore, recordTask, requireProject, thereCondition } from "./inference-shared.js";

const { inferenceDeployments: deployments, inferenceDeploymentLogs: logs, inferenceFlavors, inferenceRegistryCredentials, inferenceApiKeys, inferenceSecrets, cloudRegions } =
  schema;

type Row = typeof deployments.$inferSelect;
type Tx = Pick<Database, "select" | "insert" | "update" | "delete">;
type Status = InferenceDeployment["status"];

/** The status at `now`, as the contract's descriptions tell it. */
export function deploymentStatus(row: Pick<Row, "state" | "stateSince" | "containers">, now: Date): Status {
  if (row.state === "stopped") return "DISABLED";
  if (row.state === "deleting") return "DELETING";
  const seconds = (now.getTime() - row.stateSince.getTime()) / 1000;
  if (seconds < INFERENCE_TIMING.containersAfter) return "DEPLOYING";
  if (seconds < INFERENCE_TIMING.readyAfter) return "PARTIALLYDEPLOYED";
  return row.containers.every((container) => container.scale.min === 0) ? "PENDING" : "ACTIVE";
}

const NO_TRIGGERS = { cpu: null, gpu_memory: null, gpu_utilization: null, http: null, memory: null, sqs: null };

function toDeployment(row: Row, now: Date): InferenceDeployment {
  const status = deploymentStatus(row, now);
  const reachable = status === "ACTIVE" || status === "PENDING";
  const host = `${row.name}-p${row.projectId}`;
  return {
    name: row.name,
    project_id: row.projectId,
    status,
    address: reachable ? `https://${host}.inference.cloudplane.example` : null,
    description: row.description,
    image: row.image,
    listening_port: row.listeningPort,
    flavor_name: row.flavorName,
    command: row.command ? row.command.join(" ") : null,
    credentials_name: row.credentialsName,
    envs: row.envs,
    api_keys: row.apiKeys,
    auth_enabled: row.authEnabled || row.apiKeys.length > 0,
    containers: row.containers.map((container) => {
      const total = row.state === "running" ? container.scale.min : 0;
      return {
        region_id: container.region_id,
        address: reachable ? `https://${host}.r${container.region_id}.inference.cloudplane.example` : null,
        deploy_status: { total, ready: reachable ? total : 0 },
        error_message: null,
        scale: { ...container.scale, triggers: { ...NO_TRIGGERS, ...container.scale.triggers } },
      };
    }),
    ingress_opts: row.ingressOpts,
    logging: row.logging as InferenceDeployment["logging"],
    probes: row.probes ? { liveness_probe: null, readiness_probe: null, startup_probe: null, ...row.probes } : null,
    timeout: row.timeout,
    object_references: [],
    created_at: isoTime(row.created),
  };
}

// ----- What a body gives, as it is stored: every part present, null where unset.

type ContainersInput = CreateInferenceDeploymentFields["containers"];
type ProbesInput = NonNullable<CreateInferenceDeploymentFields["probes"]>;
type ProbeInput = NonNullable<NonNullable<ProbesInput["liveness_probe"]>["probe"]>;

function storedContainers(containers: ContainersInput): InferenceContainerSpec[] {
  return containers.map(({ region_id, scale }) => {
    const triggers: Record<string, Record<string, unknown> | null> = { ...NO_TRIGGERS };
    for (const [kind, trigger] of Object.entries(scale.triggers ?? {})) triggers[kind] = trigger ?? null;
    const sqs = scale.triggers?.sqs;
    if (sqs) triggers.sqs = { ...sqs, aws_endpoint: sqs.aws_endpoint ?? null, scale_on_delayed: sqs.scale_on_delayed ?? false, scale_on_flight: sqs.scale_on_flight ?? false };
    return { region_id, scale: { min: scale.min, max: scale.max, cooldown_period: scale.cooldown_period ?? null, polling_interval: scale.polling_interval ?? null, triggers } };
  });
}

function storedProbe(probe: ProbeInput | undefined) {
  if (!probe) return null;
  return {
    exec: probe.exec ?? null,
    http_get: probe.http_get
      ? { headers: probe.http_get.headers ?? {}, host: probe.http_get.host ?? null, path: probe.http_get.path ?? "/", port: probe.http_get.port, schema: probe.http_get.schema ?? "HTTP" }
      : null,
    tcp_socket: probe.tcp_socket ?? null,
    failure_threshold: probe.failure_threshold ?? 3,
    success_threshold: probe.success_threshold ?? 1,
    initial_delay_seconds: probe.initial_delay_seconds ?? 0,
    period_seconds: probe.period_seconds ?? 10,
    timeout_seconds: probe.timeout_seconds ?? 1,
  };
}

function storedProbes(probes: ProbesInput | null | undefined) {
  if (!probes) return null;
  const one = (config: ProbesInput["liveness_probe"]) => (config ? { enabled: config.enabled, probe: storedProbe(config.probe) } : null);
  return { liveness_probe: one(probes.liveness_probe), readiness_probe: one(probes.readiness_probe), startup_probe: one(probes.startup_probe) };
}

function storedLogging(logging: CreateInferenceDeploymentFields["logging"]) {
  if (!logging) return null;
  return {
    enabled: logging.enabled ?? true,
    destination_region_id: logging.destination_region_id ?? null,
    topic_name: logging.topic_name ?? null,
    retention_policy: logging.retention_policy ?? null,
  };
}

// ----- What a body names must exist, and hold together.

type Checked = Partial<
  Pick<CreateInferenceDeploymentFields, "flavor_name" | "credentials_name" | "api_keys" | "auth_enabled" | "logging" | "probes"> & { containers: ContainersInput | null }
>;

/**
 * Checks what a create or change names (400 naming each field otherwise), locking the project's objects it
 * names (for share) so that their deletion waits for this write and then sees it.
 */
async function checkNamed(tx: Tx, projectId: number, body: Checked): Promise<void> {
  const errors = fieldErrors();
  if (body.api_keys && body.auth_enabled !== undefined) addFieldError(errors, "auth_enabled", "Give api_keys or auth_enabled, not both.");
  const containers = body.containers ?? [];
  const regionIds = [...new Set([...containers.map((container) => container.region_id), ...(body.logging?.destination_region_id ? [body.logging.destination_region_id] : [])])];
  const secretNames = [...new Set(containers.flatMap((container) => (container.scale.triggers?.sqs ? [container.scale.triggers.sqs.secret_name] : [])))];
  const [flavor, regions, credentials, keys, secrets] = await Promise.all([
    body.flavor_name === undefined ? [] : tx.select({ name: inferenceFlavors.name }).from(inferenceFlavors).where(eq(inferenceFlavors.name, body.flavor_name)),
    regionIds.length === 0 ? [] : tx.select({ id: cloudRegions.id }).from(cloudRegions).where(inArray(cloudRegions.id, regionIds)),
    body.credentials_name
      ? tx
          .select({ id: inferenceRegistryCredentials.id })
          .from(inferenceRegistryCredentials)
          .where(and(eq(inferenceRegistryCredentials.projectId, projectId), eq(inferenceRegistryCredentials.name, body.credentials_name)))
          .for("share")
      : [],
    body.api_keys?.length
      ? tx
          .select({ name: inferenceApiKeys.name })
          .from(inferenceApiKeys)
          .where(and(eq(inferenceApiKeys.projectId, projectId), inArray(inferenceApiKeys.name, body.api_keys)))
          .for("share")
      : [],
    secretNames.length
      ? tx
          .select({ name: inferenceSecrets.name })
          .from(inferenceSecrets)
          .where(and(eq(inferenceSecrets.projectId, projectId), inArray(inferenceSecrets.name, secretNames)))
          .for("share")
      : [],
  ]);
  if (body.flavor_name !== undefined && flavor.length === 0) addFieldError(errors, "flavor_name", "Must be a flavor of the platform (GET /cloud/v3/inference/flavors).");
  const knownRegions = new Set(regions.map((region) => region.id));
  const seenRegions = new Set<number>();
  containers.forEach((container, index) => {
    const at = `containers.${index}`;
    if (!knownRegions.has(container.region_id)) addFieldError(errors, `${at}.region_id`, "Must be a region of the platform.");
    else if (seenRegions.has(container.region_id)) addFieldError(errors, `${at}.region_id`, "Each region may be given once.");
    seenRegions.add(container.region_id);
    if (container.scale.min > container.scale.max) addFieldError(errors, `${at}.scale.max`, "Must be at least scale.min.");
    const sqs = container.scale.triggers?.sqs;
    if (sqs && !secrets.some((secret) => secret.name === sqs.secret_name))
      addFieldError(errors, `${at}.scale.triggers.sqs.secret_name`, "Must be an inference secret of the project.");
  });
  if (body.logging?.destination_region_id && !knownRegions.has(body.logging.destination_region_id))
    addFieldError(errors, "logging.destination_region_id", "Must be a region of the platform.");
  if (body.credentials_name && credentials.length === 0) addFieldError(errors, "credentials_name", "Must be registry credentials of the project.");
  body.api_keys?.forEach((name, index) => {
    if (!keys.some((key) => key.name === name)) addFieldError(errors, `api_keys.${index}`, "Must be an API key of the project.");
  });
  for (const kind of ["liveness_probe", "readiness_probe", "startup_probe"] as const) {
    const config = body.probes?.[kind];
    if (!config) continue;
    if (config.enabled && !config.probe) addFieldError(errors, `probes.${kind}.probe`, "An enabled probe needs its probe.");
    if (config.probe && [config.probe.exec, config.probe.http_get, config.probe.tcp_socket].filter(Boolean).length !== 1)
      addFieldError(errors, `probes.${kind}.probe`, "Give exactly one of exec, http_get and tcp_socket.");
  }
  if (problemCount(errors) > 0) throw validationFailed(errors);
}

// ----- The lines an action logs.

const podOf = (row: Pick<Row, "name" | "stateSince">, regionId: number) => `${row.name}-r${regionId}-${Math.floor(row.stateSince.getTime() / 1000).toString(36)}`;

/** A start's lines in each region: the pull now, its end once the containers are made, the server once ready. */
async function logStart(tx: Tx, row: Row): Promise<void> {
  const at = (seconds: number) => new Date(row.stateSince.getTime() + seconds * 1000);
  await tx.insert(logs).values(
    row.containers.flatMap((container) => [
      { accountId: row.accountId, deploymentId: row.id, regionId: container.region_id, pod: podOf(row, container.region_id), message: `Pulling image "${row.image}"`, time: at(0) },
      {
        accountId: row.accountId,
        deploymentId: row.id,
        regionId: container.region_id,
        pod: podOf(row, container.region_id),
        message: `Successfully pulled image "${row.image}"`,
        time: at(INFERENCE_TIMING.containersAfter),
      },
      {
        accountId: row.accountId,
        deploymentId: row.id,
        regionId: container.region_id,
        pod: podOf(row, container.region_id),
        message: `Started container, listening on port ${row.listeningPort}`,
        time: at(INFERENCE_TIMING.readyAfter),
      },
    ]),
  );
}

/** A stop's line in each region, on the pods the last start made. */
async function logStop(tx: Tx, row: Row, why: string, now: Date): Promise<void> {
  await tx
    .insert(logs)
    .values(row.containers.map((container) => ({ accountId: row.accountId, deploymentId: row.id, regionId: container.region_id, pod: podOf(row, container.region_id), message: `Stopping container: ${why}`, time: now })));
}

// ----- The routes.

/** The deployment of that name in the project, if it is there at `now`, locked for the write when `tx` is one. */
async function deploymentNamed(db: Tx, accountId: number, projectId: number, name: string, now: Date, lock = false): Promise<Row> {
  const query = db
    .select()
    .from(deployments)
    .where(and(eq(deployments.accountId, accountId), eq(deployments.projectId, projectId), eq(deployments.name, name), thereCondition(deployments, now)));
  const [row] = await (lock ? query.for("update") : query);
  if (!row) throw notFound(`Deployment ${name}`);
  return row;
}

function refuseDeleting(row: Row): void {
  if (row.state === "deleting") throw conflict(`Deployment ${row.name} is being deleted.`);
}

export function cloudInferenceDeployments({ db }: RouteDeps) {
  const onWrite = async <T>(name: string, projectId: number, write: (tx: Tx, now: Date) => Promise<T>): Promise<T> => {
    try {
      return await db.transaction((tx) => write(tx, new Date()));
    } catch (error) {
      if (sqlState(error) === "23505") throw conflict(`Project ${projectId} already has a deployment named ${name}.`);
      throw error;
    }
  };

  return tsr.routerWithMiddleware(served("cloud", cloudInferenceDeploymentsRoutes))<RequestExtension>({
    listInferenceDeployments: async ({ params, query }, { request: { caller } }) => {
      await requireProject(db, caller.accountId, params.project_id);
      const now = new Date();
      const where = and(eq(deployments.accountId, caller.accountId), eq(deployments.projectId, params.project_id), thereCondition(deployments, now));
      const [rows, [total]] = await Promise.all([
        db.select().from(deployments).where(where).orderBy(asc(sql`${deployments.name} collate "C"`)).limit(query.limit).offset(query.offset),
        db.select({ total: count() }).from(deployments).where(where),
      ]);
      return { status: 200, body: { count: total?.total ?? 0, results: rows.map((row) => toDeployment(row, now)) } };
    },

    createInferenceDeployment: async ({ params, body }, { request: { caller } }) => {
      const taskId = await onWrite(body.name, params.project_id, async (tx, now) => {
        await requireProject(tx, caller.accountId, params.project_id);
        await checkNamed(tx, params.project_id, body);
        // A deployment of that name whose deletion is done frees its name now.
        await tx
          .delete(deployments)
          .where(and(eq(deployments.projectId, params.project_id), eq(deployments.name, body.name), eq(deployments.state, "deleting"), lte(deployments.stateSince, deletedBefore(now))));
        const [row] = await tx
          .insert(deployments)
          .values({
            accountId: caller.accountId,
            projectId: params.project_id,
            name: body.name,
            description: body.description ?? "",
            image: body.image,
            listeningPort: body.listening_port,
            flavorName: body.flavor_name,
            command: body.command ?? null,
            credentialsName: body.credentials_name ?? null,
            envs: body.envs ?? {},
            containers: storedContainers(body.containers),
            apiKeys: body.api_keys ?? [],
            authEnabled: body.auth_enabled ?? false,
            ingressOpts: body.ingress_opts ? { disable_response_buffering: body.ingress_opts.disable_response_buffering ?? false } : null,
            logging: storedLogging(body.logging),
            probes: storedProbes(body.probes),
            timeout: body.timeout ?? null,
            state: "running",
            stateSince: now,
            created: now,
          })
          .returning();
        await logStart(tx, row!);
        return recordTask(tx, caller, params.project_id, "create_inference_instance", { inference_instances: [row!.name] }, { deployment_name: row!.name }, now);
      });
      return { status: 200, body: { tasks: [taskId] } };
    },

    startInferenceDeployment: async ({ params }, { request: { caller } }) => {
      await requireProject(db, caller.accountId, params.project_id);
      await db.transaction(async (tx) => {
        const now = new Date();
        const row = await deploymentNamed(tx, caller.accountId, params.project_id, params.deployment_name, now, true);
        refuseDeleting(row);
        if (row.state === "running") return;
        const [started] = await tx.update(deployments).set({ state: "running", stateSince: now }).where(eq(deployments.id, row.id)).returning();
        await logStart(tx, started!);
      });
      return { status: 204, body: undefined };
    },

    stopInferenceDeployment: async ({ params }, { request: { caller } }) => {
      await requireProject(db, caller.accountId, params.project_id);
      await db.transaction(async (tx) => {
        const now = new Date();
        const row = await deploymentNamed(tx, caller.accountId, params.project_id, params.deployment_name, now, true);
        refuseDeleting(row);
        if (row.state === "stopped") return;
        await logStop(tx, row, "the deployment was stopped", now);
        await tx.update(deployments).set({ state: "stopped", stateSince: now }).where(eq(deployments.id, row.id));
      });
      return { status: 204, body: undefined };
    },

    listInferenceDeploymentLogs: async ({ params, query }, { request: { caller } }) => {
      await requireProject(db, caller.accountId, params.project_id);
      const now = new Date();
      const row = await deploymentNamed(db, caller.accountId, params.project_id, params.deployment_name, now);
      const where = and(eq(logs.deploymentId, row.id), lte(logs.time, now), query.region_id === undefined ? undefined : eq(logs.regionId, query.region_id));
      const order = query.order_by === "time.asc" ? asc : desc;
      const [lines, [total]] = await Promise.all([
        db.select().from(logs).where(where).orderBy(order(logs.time), order(logs.id)).limit(query.limit).offset(query.offset),
        db.select({ total: count() }).from(logs).where(where),
      ]);
      return {
        status: 200,
        body: { count: total?.total ?? 0, results: lines.map((line) => ({ time: isoTime(line.time), region_id: line.regionId, pod: line.pod, message: line.message })) },
      };
    },

    getInferenceDeployment: async ({ params }, { request: { caller } }) => {
      await requireProject(db, caller.accountId, params.project_id);
      const now = new Date();
      return { status: 200, body: toDeployment(await deploymentNamed(db, caller.accountId, params.project_id, params.deployment_name, now), now) };
    },

    updateInferenceDeployment: async ({ params, body }, { request: { caller } }) => {
      const taskId = await onWrite(params.deployment_name, params.project_id, async (tx, now) => {
        await requireProject(tx, caller.accountId, params.project_id);
        const row = await deploymentNamed(tx, caller.accountId, params.project_id, params.deployment_name, now, true);
        refuseDeleting(row);
        await checkNamed(tx, params.project_id, { ...body, api_keys: body.api_keys ?? undefined });
        const running = row.state === "running";
        // A running deployment is deployed again, even by an empty change.
        const values = { ...changesOf(body), ...(running ? { stateSince: now } : {}) };
        if (Object.keys(values).length > 0) {
          const [changed] = await tx.update(deployments).set(values).where(eq(deployments.id, row.id)).returning();
          if (running) await logStart(tx, changed!);
        }
        return recordTask(tx, caller, params.project_id, "update_inference_instance", null, { deployment_name: row.name }, now);
      });
      return { status: 200, body: { tasks: [taskId] } };
    },

    deleteInferenceDeployment: async ({ params }, { request: { caller } }) => {
      await requireProject(db, caller.accountId, params.project_id);
      const taskId = await db.transaction(async (tx) => {
        const now = new Date();
        const row = await deploymentNamed(tx, caller.accountId, params.project_id, params.deployment_name, now, true);
        refuseDeleting(row);
        if (row.state === "running") await logStop(tx, row, "the deployment is being deleted", now);
        await tx.update(deployments).set({ state: "deleting", stateSince: now }).where(eq(deployments.id, row.id));
        return recordTask(tx, caller, params.project_id, "delete_inference_instance", null, { deployment_name: row.name }, now);
      });
      return { status: 200, body: { tasks: [taskId] } };
    },
  });
}

/** The columns a change sets: the fields given (null clears the ones that can be empty, and leaves the others). */
function changesOf(body: UpdateInferenceDeploymentFields): Partial<typeof deployments.$inferInsert> {
  const changes: Partial<typeof deployments.$inferInsert> = {};
  if (body.containers) changes.containers = storedContainers(body.containers);
  if (body.image) changes.image = body.image;
  if (body.listening_port) changes.listeningPort = body.listening_port;
  if (body.flavor_name !== undefined) changes.flavorName = body.flavor_name;
  if (body.description !== undefined) changes.description = body.description ?? "";
  if (body.command !== undefined) changes.command = body.command;
  if (body.credentials_name !== undefined) changes.credentialsName = body.credentials_name;
  if (body.envs) changes.envs = body.envs;
  if (body.api_keys) {
    changes.apiKeys = body.api_keys;
    // No key left: nothing to authenticate with.
    if (body.api_keys.length === 0) changes.authEnabled = false;
  }
  if (body.auth_enabled !== undefined) changes.authEnabled = body.auth_enabled;
  if (body.ingress_opts !== undefined) changes.ingressOpts = body.ingress_opts ? { disable_response_buffering: body.ingress_opts.disable_response_buffering ?? false } : null;
  if (body.logging !== undefined) changes.logging = storedLogging(body.logging);
  if (body.probes !== undefined) changes.probes = storedProbes(body.probes);
  if (body.timeout !== undefined) changes.timeout = body.timeout;
  return changes;
}

