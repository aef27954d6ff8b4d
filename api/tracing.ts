/**
 * Optional OpenTelemetry traces, switched on by the standard OTEL_* variables: an OTLP endpoint
 * (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) or OTEL_TRACES_EXPORTER=otlp,
 * unless OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none. Without them nothing of OpenTelemetry
 * is loaded (the SDK is imported here, on demand, and the request hook in api/plugins/tracing.ts
 * only then).
 *
 * Spans are sent as OTLP/HTTP JSON (`/v1/traces`, which every OTLP/HTTP receiver accepts) in
 * batches; the exporter reads the endpoint, headers, timeout and compression from OTEL_EXPORTER_OTLP_*
 * itself, the resource comes from OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (service.name
 * `civitas` otherwise), and OTEL_TRACES_SAMPLER(_ARG) and OTEL_BSP_* are honoured here.
 */
import type { Tracer } from '@opentelemetry/api';
import { APP_VERSION } from './config.ts';

export interface Tracing {
  tracer: Tracer;
  /** Sends the spans still queued and stops (graceful shutdown). */
  shutdown(): Promise<void>;
}

const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter(Boolean);

/** Whether the environment asks for traces. */
export function tracingWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporters = list(env.OTEL_TRACES_EXPORTER);
  if (exporters.includes('none')) return false;
  return Boolean(
    exporters.includes('otlp') || env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
  );
}

/** Loads the SDK and makes the tracer; `warn` says what of the environment cannot be honoured. */
export async function startTracing(
  env: NodeJS.ProcessEnv = process.env,
  warn: (line: string) => void = () => {},
): Promise<Tracing> {
  const [{ propagation }, { W3CTraceContextPropagator }, resources, sdk, { OTLPTraceExporter }] =
    await Promise.all([
      import('@opentelemetry/api'),
      import('@opentelemetry/core'),
      import('@opentelemetry/resources'),
      import('@opentelemetry/sdk-trace'),
      import('@opentelemetry/exporter-trace-otlp-http'),
    ]);
  const others = list(env.OTEL_TRACES_EXPORTER).filter((name) => name !== 'otlp');
  if (others.length) warn(`OTEL_TRACES_EXPORTER: only otlp is supported here, not ${others.join(', ')}`);
  const protocol = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL;
  if (protocol && protocol !== 'http/json' && protocol !== 'http/protobuf')
    warn(`OTEL_EXPORTER_OTLP_PROTOCOL: ${protocol} is not supported; spans go as OTLP/HTTP JSON`);

  const resource = resources
    .defaultResource()
    .merge(resources.resourceFromAttributes({ 'service.name': 'civitas', 'service.version': APP_VERSION }))
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  const number = (name: string) => {
    const value = Number(env[name]);
    return env[name] && Number.isFinite(value) && value >= 0 ? value : undefined;
  };
  const provider = new sdk.TracerProvider({
    resource,
    sampler: samplerOf(sdk, env.OTEL_TRACES_SAMPLER, number('OTEL_TRACES_SAMPLER_ARG')),
    spanProcessors: [
      new sdk.BatchSpanProcessor({
        exporter: new OTLPTraceExporter(),
        scheduledDelayMillis: number('OTEL_BSP_SCHEDULE_DELAY'),
        maxQueueSize: number('OTEL_BSP_MAX_QUEUE_SIZE'),
        maxExportBatchSize: number('OTEL_BSP_MAX_EXPORT_BATCH_SIZE'),
        exportTimeoutMillis: number('OTEL_BSP_EXPORT_TIMEOUT'),
      }),
    ],
  });
  // An incoming `traceparent` makes the request's span a child of the caller's.
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  return { tracer: provider.getTracer('civitas', APP_VERSION), shutdown: () => provider.shutdown() };
}

type Sdk = typeof import('@opentelemetry/sdk-trace');

/** OTEL_TRACES_SAMPLER's values (the specification's list); parentbased_always_on by default. */
function samplerOf(sdk: Sdk, name = 'parentbased_always_on', ratio = 1) {
  const root = (kind: string) =>
    kind === 'always_off'
      ? new sdk.AlwaysOffSampler()
      : kind === 'traceidratio'
        ? new sdk.TraceIdRatioBasedSampler(ratio)
        : new sdk.AlwaysOnSampler();
  const wanted = name.trim().toLowerCase();
  return wanted.startsWith('parentbased_')
    ? new sdk.ParentBasedSampler({ root: root(wanted.slice('parentbased_'.length)) })
    : root(wanted);
}
