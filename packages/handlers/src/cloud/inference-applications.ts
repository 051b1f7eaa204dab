/**
 * Cloud inference applications: the platform's application catalogue, and a project's deployments of its
 * applications, each checked against the catalogue and answered with its task, as the platform does. A
 * deployment's status is computed when it is read, from its state and how long ago that was set.
 */
import {
  cloudInferenceApplicationsRoutes,
  INFERENCE_TIMING,
  type CreateInferenceApplicationDeploymentFields,
  type InferenceApplicationDeployment,
  type InferenceApplicationTemplate,
} from "@cloudplane/contract";
import {
  and,
  asc,
  count,
  eq,
  inArray,
  lte,
  schema,
  sql,
  type Database,
  type InferenceApplicationParameter,
  type InferenceComponentConfiguration,
} from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import { sqlState } from "../database-errors.js";
import { addFieldError, conflict, fieldErrors, notFound, problemCount, validationFailed } from "../errors.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import { served } from "../served.js";
import { deletedBefore, recordTask, requireProject, thereCondition } from "./inference-shared.js";

const { inferenceApplicationTemplates: templates, inferenceApplicationDeployments: deployments, inferenceApiKeys, cloudRegions } = schema;

type Row = typeof deployments.$inferSelect;
type TemplateRow = typeof templates.$inferSelect;
type Tx = Pick<Database, "select" | "insert" | "update" | "delete">;

function toTemplate(row: TemplateRow): InferenceApplicationTemplate {
  return {
    name: row.name,
    display_name: row.displayName,
    description: row.description,
    readme: row.readme,
    cover_url: row.coverUrl,
    tags: row.tags,
    components: row.components,
  };
}

function toDeployment(row: Row, now: Date): InferenceApplicationDeployment {
  const deleting = row.state === "deleting";
  const active = !deleting && now.getTime() - row.stateSince.getTime() >= INFERENCE_TIMING.readyAfter * 1000;
  const state = deleting ? "Deleting" : active ? "Active" : "Deploying";
  const components = Object.entries(row.componentsConfiguration);
  return {
    name: row.name,
    application_name: row.applicationName,
    components_configuration: row.componentsConfiguration,
    regions: row.regions,
    api_keys: row.apiKeys,
    status: {
      consolidated_status: deleting ? "Unknown" : active ? "Active" : "PartiallyDeployed",
      regions: row.regions.map((regionId) => ({
        region_id: regionId,
        status: state,
        components: Object.fromEntries(components.map(([name]) => [name, { status: state, error: "" }])),
      })),
      component_inferences: Object.fromEntries(components.map(([name, config]) => [name, { name: `${row.name}-${name}`, flavor: config.flavor }])),
      expose_addresses: active
        ? Object.fromEntries(
            components.filter(([, config]) => config.exposed).map(([name]) => [name, { address: `https://${row.name}-${name}-p${row.projectId}.inference.cloudplane.example` }]),
          )
        : {},
    },
  };
}

// ----- A configuration must fit the catalogue's application.

/** Why `value` does not fit the parameter, or undefined when it does. */
function parameterProblem(parameter: InferenceApplicationParameter, value: string): string | undefined {
  switch (parameter.type) {
    case "enum":
      return parameter.enum_values?.includes(value) ? undefined : `Must be one of: ${(parameter.enum_values ?? []).join(", ")}.`;
    case "integer":
    case "float": {
      const pattern = parameter.type === "integer" ? /^-?\d{1,15}$/ : /^-?\d{1,15}(\.\d{1,15})?$/;
      if (!pattern.test(value)) return parameter.type === "integer" ? "Must be an integer." : "Must be a number.";
      const number = Number(value);
      if (parameter.min_value !== null && number < Number(parameter.min_value)) return `Must be at least ${parameter.min_value}.`;
      if (parameter.max_value !== null && number > Number(parameter.max_value)) return `Must be at most ${parameter.max_value}.`;
      return undefined;
    }
    case "string":
      return parameter.pattern === null || new RegExp(parameter.pattern).test(value) ? undefined : `Must match ${parameter.pattern}.`;
  }
}

/** Adds to `errors` what keeps `configuration` from fitting the application `template`. */
function checkComponents(errors: Record<string, string[]>, template: TemplateRow, configuration: Record<string, InferenceComponentConfiguration>): void {
  const at = "components_configuration";
  for (const [name, component] of Object.entries(template.components))
    if (component.required && !Object.hasOwn(configuration, name)) addFieldError(errors, `${at}.${name}`, `Required: application ${template.name} cannot run without it.`);
  for (const [name, config] of Object.entries(configuration)) {
    const component = Object.hasOwn(template.components, name) ? template.components[name] : undefined;
    if (!component) {
      addFieldError(errors, `${at}.${name}`, `Must be a component of application ${template.name}: ${Object.keys(template.components).join(", ")}.`);
      continue;
    }
    if (!component.suitable_flavors.some((flavor) => flavor.name === config.flavor))
      addFieldError(errors, `${at}.${name}.flavor`, `Must be one of the component's flavors: ${component.suitable_flavors.map((flavor) => flavor.name).join(", ")}.`);
    if (config.exposed && !component.exposable) addFieldError(errors, `${at}.${name}.exposed`, "This component cannot be exposed.");
    if (config.scale.min > config.scale.max) addFieldError(errors, `${at}.${name}.scale.max`, "Must be at least scale.min.");
    for (const [parameterName, override] of Object.entries(config.parameter_overrides)) {
      const parameter = Object.hasOwn(component.parameters, parameterName) ? component.parameters[parameterName] : undefined;
      if (!parameter) {
        addFieldError(errors, `${at}.${name}.parameter_overrides.${parameterName}`, `Must be a parameter of the component: ${Object.keys(component.parameters).join(", ") || "it has none"}.`);
        continue;
      }
      const problem = parameterProblem(parameter, override.value);
      if (problem) addFieldError(errors, `${at}.${name}.parameter_overrides.${parameterName}.value`, problem);
    }
  }
}

/** Adds to `errors` the regions the platform lacks or that repeat, and the API keys the project lacks (locking those it has, for share). */
async function checkNamed(tx: Tx, errors: Record<string, string[]>, projectId: number, regions: number[] | undefined, apiKeys: string[] | undefined): Promise<void> {
  const [known, keys] = await Promise.all([
    regions?.length ? tx.select({ id: cloudRegions.id }).from(cloudRegions).where(inArray(cloudRegions.id, regions)) : [],
    apiKeys?.length
      ? tx
          .select({ name: inferenceApiKeys.name })
          .from(inferenceApiKeys)
          .where(and(eq(inferenceApiKeys.projectId, projectId), inArray(inferenceApiKeys.name, apiKeys)))
          .for("share")
      : [],
  ]);
  regions?.forEach((regionId, index) => {
    if (!known.some((region) => region.id === regionId)) addFieldError(errors, `regions.${index}`, "Must be a region of the platform.");
    else if (regions.indexOf(regionId) !== index) addFieldError(errors, `regions.${index}`, "Each region may be given once.");
  });
  apiKeys?.forEach((name, index) => {
    if (!keys.some((key) => key.name === name)) addFieldError(errors, `api_keys.${index}`, "Must be an API key of the project.");
  });
}

function storedConfiguration(configuration: CreateInferenceApplicationDeploymentFields["components_configuration"]): Record<string, InferenceComponentConfiguration> {
  return Object.fromEntries(
    Object.entries(configuration).map(([name, config]) => [name, { exposed: config.exposed, flavor: config.flavor, scale: config.scale, parameter_overrides: config.parameter_overrides ?? {} }]),
  );
}

// ----- The routes.

async function deploymentNamed(db: Tx, accountId: number, projectId: number, name: string, now: Date, lock = false): Promise<Row> {
  const query = db
    .select()
    .from(deployments)
    .where(and(eq(deployments.accountId, accountId), eq(deployments.projectId, projectId), eq(deployments.name, name), thereCondition(deployments, now)));
  const [row] = await (lock ? query.for("update") : query);
  if (!row) throw notFound(`Application deployment ${name}`);
  return row;
}

export function cloudInferenceApplications({ db }: RouteDeps) {
  return tsr.routerWithMiddleware(served("cloud", cloudInferenceApplicationsRoutes))<RequestExtension>({
    listInferenceApplicationTemplates: async () => {
      const rows = await db.select().from(templates).orderBy(asc(sql`${templates.name} collate "C"`));
      return { status: 200, body: { count: rows.length, results: rows.map(toTemplate) } };
    },

    getInferenceApplicationTemplate: async ({ params }) => {
      const [row] = await db.select().from(templates).where(eq(templates.name, params.application_name));
      if (!row) throw notFound(`Application ${params.application_name}`);
      return { status: 200, body: toTemplate(row) };
    },

    listInferenceApplicationDeployments: async ({ params, query }, { request: { caller } }) => {
      await requireProject(db, caller.accountId, params.project_id);
      const now = new Date();
      const where = and(eq(deployments.accountId, caller.accountId), eq(deployments.projectId, params.project_id), thereCondition(deployments, now));
      const [rows, [total]] = await Promise.all([
        db.select().from(deployments).where(where).orderBy(asc(sql`${deployments.name} collate "C"`)).limit(query.limit).offset(query.offset),
        db.select({ total: count() }).from(deployments).where(where),
      ]);
      return { status: 200, body: { count: total?.total ?? 0, results: rows.map((row) => toDeployment(row, now)) } };
    },

    createInferenceApplicationDeployment: async ({ params, body }, { request: { caller } }) => {
      try {
        const taskId = await db.transaction(async (tx) => {
          const now = new Date();
          await requireProject(tx, caller.accountId, params.project_id);
          const errors = fieldErrors();
          const [template] = await tx.select().from(templates).where(eq(templates.name, body.application_name));
          const configuration = storedConfiguration(body.components_configuration);
          if (!template) addFieldError(errors, "application_name", "Must be an application of the catalogue (GET /cloud/v3/inference/applications/catalog).");
          else checkComponents(errors, template, configuration);
          await checkNamed(tx, errors, params.project_id, body.regions, body.api_keys);
          if (problemCount(errors) > 0) throw validationFailed(errors);
          // One whose deletion is done frees its name now.
          await tx
            .delete(deployments)
            .where(and(eq(deployments.projectId, params.project_id), eq(deployments.name, body.name), eq(deployments.state, "deleting"), lte(deployments.stateSince, deletedBefore(now))));
          const [row] = await tx
            .insert(deployments)
            .values({
              accountId: caller.accountId,
              projectId: params.project_id,
              name: body.name,
              applicationName: body.application_name,
              componentsConfiguration: configuration,
              regions: body.regions,
              apiKeys: body.api_keys ?? [],
              state: "running",
              stateSince: now,
              created: now,
            })
            .returning({ name: deployments.name });
          return recordTask(tx, caller, params.project_id, "create_inference_application", { inference_applications: [row!.name] }, { application_deployment_name: row!.name }, now);
        });
        return { status: 200, body: { tasks: [taskId] } };
      } catch (error) {
        if (sqlState(error) === "23505") throw conflict(`Project ${params.project_id} already has an application deployment named ${body.name}.`);
        throw error;
      }
    },

    getInferenceApplicationDeployment: async ({ params }, { request: { caller } }) => {
      await requireProject(db, caller.accountId, params.project_id);
      const now = new Date();
      return { status: 200, body: toDeployment(await deploymentNamed(db, caller.accountId, params.project_id, params.deployment_name, now), now) };
    },

    updateInferenceApplicationDeployment: async ({ params, body }, { request: { caller } }) => {
      await requireProject(db, caller.accountId, params.project_id);
      const taskId = await db.transaction(async (tx) => {
        const now = new Date();
        const row = await deploymentNamed(tx, caller.accountId, params.project_id, params.deployment_name, now, true);
        if (row.state === "deleting") throw conflict(`Application deployment ${row.name} is being deleted.`);
        const [template] = await tx.select().from(templates).where(eq(templates.name, row.applicationName));
        const errors = fieldErrors();
        const configuration = { ...row.componentsConfiguration };
        for (const [name, change] of Object.entries(body.components_configuration ?? {})) {
          const at = `components_configuration.${name}`;
          const component = template && Object.hasOwn(template.components, name) ? template.components[name] : undefined;
          if (!component) {
            addFieldError(errors, at, `Must be a component of application ${row.applicationName}.`);
            continue;
          }
          const current = Object.hasOwn(configuration, name) ? configuration[name] : undefined;
          if (change === null) {
            if (component.required) addFieldError(errors, at, "A required component cannot be removed.");
            delete configuration[name];
            continue;
          }
          const scale = { ...current?.scale, ...change.scale };
          if (!current && (change.exposed === undefined || change.flavor === undefined || scale.min === undefined || scale.max === undefined)) {
            addFieldError(errors, at, "A component the deployment lacks needs exposed, flavor and scale (min and max).");
            continue;
          }
          const overrides: Record<string, { value: string }> = { ...current?.parameter_overrides };
          for (const [parameter, override] of Object.entries(change.parameter_overrides ?? {})) {
            if (override === null) delete overrides[parameter];
            else overrides[parameter] = override;
          }
          configuration[name] = {
            exposed: change.exposed ?? current!.exposed,
            flavor: change.flavor ?? current!.flavor,
            scale: { min: scale.min!, max: scale.max! },
            parameter_overrides: overrides,
          };
        }
        if (template && problemCount(errors) === 0) checkComponents(errors, template, configuration);
        await checkNamed(tx, errors, params.project_id, body.regions, body.api_keys);
        if (problemCount(errors) > 0) throw validationFailed(errors);
        await tx
          .update(deployments)
          .set({ componentsConfiguration: configuration, regions: body.regions ?? row.regions, apiKeys: body.api_keys ?? row.apiKeys, stateSince: now })
          .where(eq(deployments.id, row.id));
        return recordTask(tx, caller, params.project_id, "update_inference_application", null, { application_deployment_name: row.name }, now);
      });
      return { status: 200, body: { tasks: [taskId] } };
    },

    deleteInferenceApplicationDeployment: async ({ params }, { request: { caller } }) => {
      await requireProject(db, caller.accountId, params.project_id);
      const taskId = await db.transaction(async (tx) => {
        const now = new Date();
        const row = await deploymentNamed(tx, caller.accountId, params.project_id, params.deployment_name, now, true);
        if (row.state === "deleting") throw conflict(`Application deployment ${row.name} is being deleted.`);
        await tx.update(deployments).set({ state: "deleting", stateSince: now }).where(eq(deployments.id, row.id));
        return recordTask(tx, caller, params.project_id, "delete_inference_application", null, { application_deployment_name: row.name }, now);
      });
      return { status: 200, body: { tasks: [taskId] } };
    },
  });
}
