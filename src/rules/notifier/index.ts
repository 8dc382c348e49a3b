/**
 * The notifier: Prometheus' `alerting:` section (Alertmanager API v2 with static and file_sd
 * discovery, `alert_relabel_configs`) and Infersight's generic webhooks. `src/rules/index.ts`
 * re-exports this surface.
 */
export { DEFAULT_NOTIFY_TIMEOUT_MS, EMPTY_ALERTING_CONFIG, WEBHOOKS_KEY, parseAlertingConfig, type AlertingConfig, type AlertmanagerConfig, type WebhookConfig } from './config.js';
export { ALERTS_PATH_LABEL, AlertmanagerDiscovery, alertmanagersFromGroups, alertsPath, type DiscoveredAlertmanagers } from './discovery.js';
export { RESPONSE_PREFIX_BYTES, httpNotifyPost, type NotifyPost, type NotifyRequest, type NotifyResponse, type NotifyTls } from './http-post.js';
export { DEFAULT_MAX_BATCH_SIZE, DEFAULT_QUEUE_CAPACITY, Notifier, type AlertmanagersData, type NotifierOptions, type NotifierStats } from './notifier.js';
export { alertmanagerV2Body, labelsFingerprint, rfc3339Millis, webhookBody } from './payload.js';
export { DEFAULT_BACKOFF, type BackoffOptions, type DestinationStats } from './send-loop.js';
