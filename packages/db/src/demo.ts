/**
 * Loads the demo data (demo-fixture.ts) into a database, idempotently: rows whose key is already there
 * are left alone. Token plaintexts become SHA-256 hashes and secrets are encrypted on the way in.
 */
import { getTableName, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { encryptSecret, hashToken, sha256Hex } from "./crypto.js";
import type { Database } from "./database.js";
import { demoFixture, type DemoFixture, type DemoLogsUploaderCheck } from "./demo-fixture.js";
import {
  accounts,
  apiTokens,
  broadcasts,
  buckets,
  cdnFeatures,
  cdnResourceHostnames,
  cdnResources,
  certificates,
  clips,
  cloudProjects,
  cloudRegions,
  cloudTasks,
  edgeAppSecrets,
  edgeApps,
  edgeBinaries,
  edgePlans,
  edgeSecretSlots,
  edgeSecrets,
  edgeTemplateParams,
  edgeTemplates,
  gpuImages,
  inferenceModels,
  logsUploaderConfigResources,
  logsUploaderConfigs,
  logsUploaderPolicies,
  logsUploaderTargets,
  originGroupSources,
  originGroups,
  securityProfileFields,
  securityProfileTemplates,
  securityProfiles,
  securityTemplateFields,
  shieldingPops,
  storages,
  streams,
  usageLines,
  users,
} from "./schema/index.js";

export interface LoadDemoDataOptions {
  /** The AES-GCM key that encrypts secret slot values and logs uploader secret keys. */
  secretsKey: CryptoKey;
  /** The data to load; the bundled demo fixture by default. */
  fixture?: DemoFixture;
}

export interface LoadDemoDataResult {
  /** Rows inserted per table; 0 where every row was already there. */
  inserted: Record<string, number>;
}

const date = (value: string) => new Date(value);
const optionalDate = (value: string | null) => (value === null ? null : new Date(value));

/** A row's `created` and `updated` times. */
const createdAndUpdated = (row: { created: string; updated: string }) => ({ created: date(row.created), updated: date(row.updated) });

/** The columns of a logs uploader target's or config's last check. */
const checkColumns = (check: DemoLogsUploaderCheck) => ({
  status: check.status,
  statusCode: check.code,
  statusDetails: check.details,
  statusUpdated: date(check.updated),
});

/**
 * Inserts the demo data in one transaction, skipping rows whose key exists, then moves every id
 * sequence past the largest id so rows created later get fresh ids.
 */
export async function loadDemoData(db: Database, options: LoadDemoDataOptions): Promise<LoadDemoDataResult> {
  const fixture = options.fixture ?? demoFixture;
  const key = options.secretsKey;
  const { iam, cdn, edge, streaming, cloud, security, storage } = fixture;

  // Crypto first, so the transaction holds its locks only for the inserts.
  const tokenRows = await Promise.all(
    iam.api_tokens.map(async (token) => ({
      id: token.id,
      accountId: token.account_id,
      userId: token.user_id,
      name: token.name,
      description: token.description,
      tokenHash: await hashToken(token.plaintext),
      expDate: optionalDate(token.exp_date),
      created: date(token.created),
      lastUsage: optionalDate(token.last_usage),
      deleted: token.deleted,
    })),
  );
  const targetRows = await Promise.all(
    cdn.logs_uploader_targets.map(async (target) => ({
      id: target.id,
      accountId: target.client_id,
      name: target.name,
      description: target.description,
      storageType: target.storage_type,
      accessKeyId: target.config.access_key_id,
      secretAccessKeyEncrypted: await encryptSecret(key, target.config.secret_access_key),
      region: target.config.region,
      bucketName: target.config.bucket_name,
      directory: target.config.directory,
      endpoint: target.config.endpoint,
      usePathStyle: target.config.use_path_style,
      ...checkColumns(target.status),
      ...createdAndUpdated(target),
    })),
  );
  const slotRows = await Promise.all(
    edge.secrets.flatMap((secret) =>
      secret.secret_slots.map(async (slot) => ({
        accountId: secret.account_id,
        secretId: secret.id,
        slot: slot.slot,
        valueEncrypted: await encryptSecret(key, slot.value),
        checksum: await sha256Hex(slot.value),
      })),
    ),
  );

  const inserted: Record<string, number> = {};

  await db.transaction(async (tx) => {
    async function insert<T extends PgTable>(table: T, target: PgColumn | PgColumn[], rows: T["$inferInsert"][]): Promise<void> {
      const name = getTableName(table);
      if (rows.length === 0) {
        inserted[name] = 0;
        return;
      }
      const result = await tx.insert(table).values(rows).onConflictDoNothing({ target }).returning({ one: sql<number>`1` });
      inserted[name] = result.length;
    }

    // IAM
    await insert(
      accounts,
      accounts.id,
      iam.accounts.map((account) => ({
        id: account.id,
        name: account.name,
        utilizationLevel: account.utilization_level,
        cname: account.cname,
        useBalancer: account.use_balancer,
        autoSuspendEnabled: account.auto_suspend_enabled,
        cdnResourcesRulesMaxCount: account.cdn_resources_rules_max_count,
        cdnServiceEnabled: account.service.enabled,
        cdnServiceStatus: account.service.status,
        cdnServiceUpdated: date(account.service.updated),
        ...createdAndUpdated(account),
      })),
    );
    await insert(
      users,
      users.id,
      iam.users.map((user) => ({
        id: user.id,
        accountId: user.account_id,
        name: user.name,
        email: user.email,
        roleId: user.role_id,
        deleted: user.deleted,
        created: date(user.created),
      })),
    );
    await insert(apiTokens, apiTokens.id, tokenRows);

    // CDN
    await insert(shieldingPops, shieldingPops.id, cdn.shielding_pops);
    await insert(
      originGroups,
      originGroups.id,
      cdn.origin_groups.map((group) => ({
        id: group.id,
        accountId: group.account_id,
        name: group.name,
        useNext: group.use_next,
        proxyNextUpstream: group.proxy_next_upstream,
        authType: group.auth_type,
        path: group.path,
        ...createdAndUpdated(group),
      })),
    );
    await insert(
      originGroupSources,
      [originGroupSources.originGroupId, originGroupSources.position],
      cdn.origin_groups.flatMap((group) =>
        group.sources.map(({ host_header_override: hostHeaderOverride, ...source }, position) => ({
          accountId: group.account_id,
          originGroupId: group.id,
          position,
          ...source,
          hostHeaderOverride,
        })),
      ),
    );
    await insert(
      certificates,
      certificates.id,
      cdn.certificates.map((certificate) => ({
        id: certificate.id,
        accountId: certificate.account_id,
        name: certificate.name,
        kind: certificate.kind,
        created: date(certificate.created),
      })),
    );
    await insert(
      cdnResources,
      cdnResources.id,
      cdn.resources.map((resource) => ({
        id: resource.id,
        accountId: resource.client,
        name: resource.name,
        description: resource.description,
        cname: resource.cname,
        active: resource.active,
        enabled: resource.enabled,
        status: resource.status,
        deleted: resource.deleted,
        originGroupId: resource.originGroup,
        originProtocol: resource.originProtocol,
        sslEnabled: resource.sslEnabled,
        sslDataId: resource.sslData,
        proxySslEnabled: resource.proxy_ssl_enabled,
        proxySslCaId: resource.proxy_ssl_ca,
        proxySslDataId: resource.proxy_ssl_data,
        shieldingPopId: resource.shielding_pop,
        shieldRoutingMap: resource.shield_routing_map,
        presetApplied: resource.preset_applied,
        vpEnabled: resource.vp_enabled,
        fullCustomEnabled: resource.full_custom_enabled,
        canPurgeByUrls: resource.can_purge_by_urls,
        suspendDate: optionalDate(resource.suspend_date),
        suspended: resource.suspended,
        primaryResourceId: resource.primary_resource,
        isPrimary: resource.is_primary,
        waapDomainId: resource.waap_domain_id,
        waapApiDomainEnabled: resource.waap_api_domain_enabled,
        rules: resource.rules,
        options: resource.options,
        ...createdAndUpdated(resource),
      })),
    );
    await insert(
      cdnResourceHostnames,
      [cdnResourceHostnames.resourceId, cdnResourceHostnames.position],
      cdn.resources.flatMap((resource) =>
        resource.secondaryHostnames.map((hostname, position) => ({ accountId: resource.client, resourceId: resource.id, position, hostname })),
      ),
    );
    await insert(
      cdnFeatures,
      cdnFeatures.id,
      cdn.features.map((feature) => ({
        id: feature.id,
        accountId: feature.account_id,
        featureId: feature.feature_id,
        name: feature.name,
        paid: feature.paid,
        created: date(feature.create_date),
      })),
    );
    await insert(logsUploaderTargets, logsUploaderTargets.id, targetRows);
    await insert(
      logsUploaderPolicies,
      logsUploaderPolicies.id,
      cdn.logs_uploader_policies.map((policy) => ({
        id: policy.id,
        accountId: policy.client_id,
        name: policy.name,
        description: policy.description,
        includeEmptyLogs: policy.include_empty_logs,
        includeShieldLogs: policy.include_shield_logs,
        escapeSpecialCharacters: policy.escape_special_characters,
        retryIntervalMinutes: policy.retry_interval_minutes,
        rotateIntervalMinutes: policy.rotate_interval_minutes,
        rotateThresholdMb: policy.rotate_threshold_mb,
        rotateThresholdLines: policy.rotate_threshold_lines,
        dateFormat: policy.date_format,
        fieldDelimiter: policy.field_delimiter,
        fieldSeparator: policy.field_separator,
        fields: policy.fields,
        fileNameTemplate: policy.file_name_template,
        formatType: policy.format_type,
        tags: policy.tags,
        logSampleRate: policy.log_sample_rate,
        ...createdAndUpdated(policy),
      })),
    );
    await insert(
      logsUploaderConfigs,
      logsUploaderConfigs.id,
      cdn.logs_uploader_configs.map((config) => ({
        id: config.id,
        accountId: config.client_id,
        name: config.name,
        enabled: config.enabled,
        forAllResources: config.for_all_resources,
        policyId: config.policy,
        targetId: config.target,
        ...checkColumns(config.status),
        ...createdAndUpdated(config),
      })),
    );
    await insert(
      logsUploaderConfigResources,
      [logsUploaderConfigResources.configId, logsUploaderConfigResources.resourceId],
      cdn.logs_uploader_configs.flatMap((config) =>
        config.resources.map((resourceId) => ({ accountId: config.client_id, configId: config.id, resourceId })),
      ),
    );

    // Edge apps
    await insert(
      edgePlans,
      edgePlans.id,
      edge.plans.map((plan) => ({
        id: plan.id,
        name: plan.name,
        maxDurationMs: plan.max_duration_ms,
        memoryLimitMb: plan.memory_limit_mb,
        maxSubrequests: plan.max_subrequests,
      })),
    );
    await insert(
      edgeBinaries,
      edgeBinaries.id,
      edge.binaries.map((binary) => ({
        id: binary.id,
        accountId: binary.account_id,
        apiType: binary.api_type,
        checksum: binary.checksum,
        status: binary.status,
        source: binary.source,
        unrefSince: optionalDate(binary.unref_since),
        created: date(binary.created),
      })),
    );
    await insert(
      edgeTemplates,
      edgeTemplates.id,
      edge.templates.map((template) => ({
        id: template.id,
        accountId: template.account_id,
        binaryId: template.binary_id,
        name: template.name,
        shortDescr: template.short_descr,
        longDescr: template.long_descr,
        apiType: template.api_type,
        created: date(template.created),
      })),
    );
    await insert(
      edgeTemplateParams,
      [edgeTemplateParams.templateId, edgeTemplateParams.position],
      edge.templates.flatMap((template) =>
        template.params.map((param, position) => ({
          templateId: template.id,
          position,
          name: param.name,
          dataType: param.data_type,
          mandatory: param.mandatory,
          descr: param.descr,
          metadata: param.metadata,
        })),
      ),
    );
    await insert(
      edgeSecrets,
      edgeSecrets.id,
      edge.secrets.map((secret) => ({
        id: secret.id,
        accountId: secret.account_id,
        name: secret.name,
        comment: secret.comment,
        ...createdAndUpdated(secret),
      })),
    );
    await insert(edgeSecretSlots, [edgeSecretSlots.secretId, edgeSecretSlots.slot], slotRows);
    await insert(
      edgeApps,
      edgeApps.id,
      edge.apps.map((app) => ({
        id: app.id,
        accountId: app.account_id,
        name: app.name,
        status: app.status,
        binaryId: app.binary,
        templateId: app.template,
        planId: app.plan_id,
        apiType: app.api_type,
        comment: app.comment,
        url: app.url,
        networks: app.networks,
        upgradeableTo: app.upgradeable_to,
        env: app.env,
        rspHeaders: app.rsp_headers,
        log: app.log,
        debugUntil: optionalDate(app.debug_until),
        ...createdAndUpdated(app),
      })),
    );
    await insert(
      edgeAppSecrets,
      [edgeAppSecrets.appId, edgeAppSecrets.name],
      edge.apps.flatMap((app) =>
        Object.entries(app.secrets).map(([name, secret]) => ({ accountId: app.account_id, appId: app.id, name, secretId: secret.id })),
      ),
    );

    // Streaming
    await insert(
      streams,
      streams.id,
      streaming.streams.map((stream) => ({
        id: stream.id,
        accountId: stream.account_id,
        clientUserId: stream.client_user_id,
        name: stream.name,
        pull: stream.pull,
        active: stream.active,
        autoRecord: stream.auto_record,
        htmlOverlay: stream.html_overlay,
        live: stream.live,
        backupLive: stream.backup_live,
        uri: stream.uri,
        pushUrl: stream.push_url,
        backupPushUrl: stream.backup_push_url,
        pushUrlSrt: stream.push_url_srt,
        backupPushUrlSrt: stream.backup_push_url_srt,
        pushUrlWhip: stream.push_url_whip,
        createdAt: date(stream.created_at),
        startedAtPrimary: optionalDate(stream.started_at_primary),
        finishedAtPrimary: optionalDate(stream.finished_at_primary),
        startedAtBackup: optionalDate(stream.started_at_backup),
        dvrDuration: stream.dvr_duration,
        recordingDuration: stream.recording_duration,
        iframeUrl: stream.iframe_url,
        dashUrl: stream.dash_url,
        hlsCmafUrl: stream.hls_cmaf_url,
        hlsMpegtsUrl: stream.hls_mpegts_url,
        screenshot: stream.screenshot,
        transcodedQualities: stream.transcoded_qualities,
        transcodingSpeed: stream.transcoding_speed,
        frameRate: stream.frame_rate,
        videoHeight: stream.video_height,
        videoWidth: stream.video_width,
        projection: stream.projection,
        recordType: stream.record_type,
        qualitySetId: stream.quality_set_id,
        cdnId: stream.cdn_id,
        clientEntityData: stream.client_entity_data,
        hlsMpegtsEndlistTag: stream.hls_mpegts_endlist_tag,
        streamSourceType: stream.stream_source_type,
      })),
    );
    await insert(
      broadcasts,
      broadcasts.id,
      streaming.broadcasts.map((broadcast) => ({
        id: broadcast.id,
        accountId: broadcast.account_id,
        streamId: broadcast.stream_id,
        name: broadcast.name,
        status: broadcast.status,
        created: date(broadcast.created),
      })),
    );
    await insert(
      clips,
      clips.id,
      streaming.clips.map((clip) => ({
        id: clip.id,
        accountId: clip.account_id,
        streamId: clip.stream_id,
        createdAt: date(clip.created_at),
        vodRequired: clip.vod_required,
        videoId: clip.video_id,
        renditions: clip.renditions,
        hlsMaster: clip.hls_master,
        mp4Master: clip.mp4_master,
        start: clip.start,
        duration: clip.duration,
        expiration: clip.expiration,
      })),
    );

    // Cloud
    await insert(
      inferenceModels,
      inferenceModels.id,
      cloud.inference_models.map((model) => ({
        id: model.id,
        name: model.name,
        category: model.category,
        defaultFlavorId: model.default_flavor_id,
        description: model.description,
        developer: model.developer,
        documentationPage: model.documentation_page,
        eulaUrl: model.eula_url,
        exampleCurlRequest: model.example_curl_request,
        hasEula: model.has_eula,
        imageRegistryId: model.image_registry_id,
        imageUrl: model.image_url,
        inferenceBackend: model.inference_backend,
        inferenceFrontend: model.inference_frontend,
        modelId: model.model_id,
        openaiCompatibility: model.openai_compatibility,
        port: model.port,
        version: model.version,
      })),
    );
    await insert(
      cloudRegions,
      cloudRegions.id,
      cloud.regions.map((region) => ({ id: region.id, name: region.name, displayName: region.display_name })),
    );
    await insert(
      cloudProjects,
      cloudProjects.id,
      cloud.projects.map((project) => ({
        id: project.id,
        accountId: project.account_id,
        name: project.name,
        description: project.description,
        created: date(project.created),
      })),
    );
    await insert(
      gpuImages,
      gpuImages.id,
      cloud.gpu_images.map((image) => ({
        id: image.id,
        accountId: image.account_id,
        projectId: image.project_id,
        regionId: image.region_id,
        name: image.name,
        architecture: image.architecture,
        osDistro: image.os_distro,
        osType: image.os_type,
        osVersion: image.os_version,
        sshKey: image.ssh_key,
        status: image.status,
        visibility: image.visibility,
        createdAt: date(image.created_at),
        updatedAt: date(image.updated_at),
        minDisk: image.min_disk,
        minRam: image.min_ram,
        size: image.size,
        tags: image.tags,
        taskId: image.task_id,
        diskFormat: image.disk_format,
        hwFirmwareType: image.hw_firmware_type,
        cudaToolkitVersion: image.cuda_toolkit_version,
        gpuDriver: image.gpu_driver,
        gpuDriverType: image.gpu_driver_type,
        gpuDriverVersion: image.gpu_driver_version,
      })),
    );
    await insert(
      cloudTasks,
      cloudTasks.id,
      cloud.tasks.map((task) => ({
        id: task.id,
        accountId: task.account_id,
        userId: task.user_id,
        projectId: task.project_id,
        regionId: task.region_id,
        taskType: task.task_type,
        state: task.state,
        createdResources: task.created_resources,
        data: task.data,
        createdOn: date(task.created_on),
        finishedOn: optionalDate(task.finished_on),
      })),
    );
    await insert(
      usageLines,
      usageLines.id,
      cloud.usage_lines.map((line) => ({
        id: line.id,
        accountId: line.account_id,
        month: line.month,
        type: line.type,
        regionId: line.region_id,
        flavor: line.flavor,
        instanceType: line.instance_type,
        volumeType: line.volume_type,
        billingMetricName: line.billing_metric_name,
        billingFeatureName: line.billing_feature_name,
        billingValueUnit: line.billing_value_unit,
        currency: line.currency,
        billingValue: line.billing_value,
        cost: line.cost,
        tags: line.tags,
      })),
    );

    // Security
    await insert(
      securityProfileTemplates,
      securityProfileTemplates.id,
      security.profile_templates.map((template) => ({
        id: template.id,
        name: template.name,
        description: template.description,
        baseTemplateId: template.base_template,
        version: template.version,
        created: date(template.created),
        templateSifter: template.template_sifter,
        accountId: template.account_id,
        acceptsIpAddress: template.accepts_ip_address,
      })),
    );
    await insert(
      securityTemplateFields,
      securityTemplateFields.id,
      security.profile_templates.flatMap((template) =>
        template.fields.map((field, position) => ({
          id: field.id,
          templateId: template.id,
          position,
          name: field.name,
          description: field.description,
          fieldType: field.field_type,
          required: field.required,
          default: field.default,
          validationSchema: field.validation_schema,
        })),
      ),
    );
    await insert(
      securityProfiles,
      securityProfiles.id,
      security.profiles.map((profile) => ({
        id: profile.id,
        accountId: profile.account_id,
        templateId: profile.profile_template,
        ipAddress: profile.ip_address,
        site: profile.site,
        options: profile.options,
        protocols: profile.protocols,
        status: profile.status,
        plan: profile.plan,
        ...createdAndUpdated(profile),
        deleted: optionalDate(profile.deleted),
      })),
    );
    await insert(
      securityProfileFields,
      securityProfileFields.id,
      security.profiles.flatMap((profile) =>
        profile.fields.map((field) => ({
          id: field.id,
          accountId: profile.account_id,
          profileId: profile.id,
          baseFieldId: field.base_field,
          fieldValue: field.field_value,
        })),
      ),
    );

    // Storage
    await insert(
      storages,
      storages.id,
      storage.storages.map((entry) => ({
        id: entry.id,
        accountId: entry.account_id,
        name: entry.name,
        type: entry.type,
        location: entry.location,
        created: date(entry.created),
      })),
    );
    await insert(
      buckets,
      buckets.id,
      storage.buckets.map((bucket) => ({
        id: bucket.id,
        accountId: bucket.account_id,
        storageId: bucket.storage_id,
        name: bucket.name,
        allowedOrigins: bucket.allowedOrigins,
        created: date(bucket.created),
      })),
    );

    await advanceIdSequences(tx);
  });

  return { inserted };
}

/**
 * Moves the sequence of every identity id past the table's largest id (never backwards), since rows
 * inserted with explicit ids do not advance it; without this the next created row would collide.
 */
async function advanceIdSequences(db: Pick<Database, "execute">): Promise<void> {
  await db.execute(
    sql.raw(`do $$
declare
  entry record;
  largest bigint;
  sequence_name text;
begin
  for entry in
    select table_name from information_schema.columns
    where table_schema = current_schema() and column_name = 'id' and is_identity = 'YES'
  loop
    execute format('select max(id) from %I', entry.table_name) into largest;
    sequence_name := pg_get_serial_sequence(format('%I', entry.table_name), 'id');
    if largest is not null and largest > coalesce(pg_sequence_last_value(sequence_name::regclass), 0) then
      perform setval(sequence_name, largest);
    end if;
  end loop;
end
$$`),
  );
}
