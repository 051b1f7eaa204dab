/**
 * Route cases of the CDN logs uploader (targets, policies, configs): one valid request per route on
 * the demo data (see ../route-cases.ts). They are part of the cdn area.
 */
import type { DemoAccountId, DemoFixture } from "../demo-fixture.js";
import { type AreaRouteCases, first, uniqueName } from "./case.js";

/** An id no object has, different for each account (for a delete's path without the object it made). */
const noSuchId = (account: DemoAccountId) => 2_147_483_000 + account;

export function logsUploaderRouteCases(fixture: DemoFixture) {
  const target = (account: DemoAccountId) => first(fixture.logsUploaderTargets, `logs uploader target of account ${account}`, (row) => row.accountId === account);
  const policy = (account: DemoAccountId) => first(fixture.logsUploaderPolicies, `logs uploader policy of account ${account}`, (row) => row.accountId === account);
  const config = (account: DemoAccountId) => first(fixture.logsUploaderConfigs, `logs uploader config of account ${account}`, (row) => row.accountId === account);
  const targetPath = (account: DemoAccountId) => `/cdn/logs_uploader/targets/${target(account).id}`;
  const policyPath = (account: DemoAccountId) => `/cdn/logs_uploader/policies/${policy(account).id}`;
  const configPath = (account: DemoAccountId) => `/cdn/logs_uploader/configs/${config(account).id}`;

  return {
    "cdn.listLogsUploaderTargets": { path: () => "/cdn/logs_uploader/targets?limit=10", ownsObjects: false },
    "cdn.createLogsUploaderTarget": {
      path: () => "/cdn/logs_uploader/targets",
      ownsObjects: false,
      body: () => ({
        storage_type: "s3_other",
        name: uniqueName("route-case-target"),
        description: "Made by the route cases",
        config: { access_key_id: "AKIAROUTECASES", secret_access_key: "route-case-secret-access-key", region: "eu-1", bucket_name: "route-case-logs" },
      }),
    },
    "cdn.getLogsUploaderTarget": { path: targetPath, ownsObjects: true },
    "cdn.replaceLogsUploaderTarget": {
      path: targetPath,
      ownsObjects: true,
      // The target as it is, with a new secret: the configs that use it keep working.
      body: (account) => {
        const { storageType, name, description, accessKeyId, region, bucketName, directory, endpoint, usePathStyle } = target(account);
        const config = { access_key_id: accessKeyId, region, bucket_name: bucketName, use_path_style: usePathStyle };
        return {
          storage_type: storageType,
          name,
          description,
          config: { ...config, secret_access_key: "route-case-replaced-secret", ...(directory === null ? {} : { directory }), ...(endpoint === null ? {} : { endpoint }) },
        };
      },
    },
    "cdn.updateLogsUploaderTarget": {
      path: targetPath,
      ownsObjects: true,
      body: () => ({ description: uniqueName("Changed by the route cases") }),
    },
    "cdn.deleteLogsUploaderTarget": {
      path: (account, made) => `/cdn/logs_uploader/targets/${made?.id ?? noSuchId(account)}`,
      ownsObjects: true,
      makes: "cdn.createLogsUploaderTarget",
    },
    "cdn.validateLogsUploaderTarget": { path: (account) => `${targetPath(account)}/validate`, ownsObjects: true },

    "cdn.listLogsUploaderPolicies": { path: () => "/cdn/logs_uploader/policies?limit=10", ownsObjects: false },
    "cdn.createLogsUploaderPolicy": {
      path: () => "/cdn/logs_uploader/policies",
      ownsObjects: false,
      body: () => ({ name: uniqueName("route-case-policy"), fields: ["remote_addr", "status"] }),
    },
    "cdn.getLogsUploaderPolicyFields": { path: () => "/cdn/logs_uploader/policies/fields", ownsObjects: false },
    "cdn.getLogsUploaderPolicy": { path: policyPath, ownsObjects: true },
    "cdn.replaceLogsUploaderPolicy": {
      // The account's first policy has the defaults: a replace that names it keeps it as it is.
      path: policyPath,
      ownsObjects: true,
      body: (account) => ({ name: policy(account).name }),
    },
    "cdn.updateLogsUploaderPolicy": {
      path: policyPath,
      ownsObjects: true,
      body: () => ({ description: uniqueName("Changed by the route cases") }),
    },
    "cdn.deleteLogsUploaderPolicy": {
      path: (account, made) => `/cdn/logs_uploader/policies/${made?.id ?? noSuchId(account)}`,
      ownsObjects: true,
      makes: "cdn.createLogsUploaderPolicy",
    },

    "cdn.listLogsUploaderConfigs": { path: () => "/cdn/logs_uploader/configs?limit=10", ownsObjects: false },
    "cdn.createLogsUploaderConfig": {
      path: () => "/cdn/logs_uploader/configs",
      ownsObjects: false,
      body: (account) => ({ name: uniqueName("route-case-config"), policy: policy(account).id, target: target(account).id, enabled: false }),
    },
    "cdn.getLogsUploaderConfig": { path: configPath, ownsObjects: true },
    "cdn.replaceLogsUploaderConfig": {
      path: configPath,
      ownsObjects: true,
      // The config as the fixture has it.
      body: (account) => {
        const { id, name, policyId, targetId, enabled, forAllResources } = config(account);
        const resources = fixture.logsUploaderConfigResources.filter((row) => row.configId === id).map((row) => row.resourceId);
        return { name, policy: policyId, target: targetId, enabled, for_all_resources: forAllResources, resources };
      },
    },
    "cdn.updateLogsUploaderConfig": {
      path: configPath,
      ownsObjects: true,
      body: () => ({ name: uniqueName("route-case-config") }),
    },
    "cdn.deleteLogsUploaderConfig": {
      path: (account, made) => `/cdn/logs_uploader/configs/${made?.id ?? noSuchId(account)}`,
      ownsObjects: true,
      makes: "cdn.createLogsUploaderConfig",
    },
    "cdn.validateLogsUploaderConfig": { path: (account) => `${configPath(account)}/validate`, ownsObjects: true },
  } satisfies AreaRouteCases<"cdn">;
}
