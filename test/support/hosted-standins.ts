import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deterministicPng } from '../../src/runs/providers/artifacts.js';

/**
 * Local stand-ins of two hosted generation APIs, speaking their documented wire formats, on one loopback server:
 * Replicate's predictions API under /replicate/v1 (create by model or version with `Prefer: wait`, get, cancel;
 * statuses starting → processing → succeeded | failed | canceled; output file URLs) and fal's queue API under /fal
 * (submit → IN_QUEUE with a queue position, status → IN_PROGRESS → COMPLETED, result, cancel answering 202 or 400
 * ALREADY_COMPLETED). Result files are served under /files. Each request is scripted by a plan, taken in order.
 */

export const REPLICATE_TOKEN = 'r8_standin_not_a_real_token';
export const FAL_KEY = 'fal-standin-key:not-a-real-secret';
export const STANDIN_IMAGE = deterministicPng('hosted', 24, 1);
export const STANDIN_VIDEO = Buffer.from('\u0000\u0000\u0000\u0018ftypmp42 stand-in video bytes', 'latin1');

export interface Plan {
  /** Status reads while queued (Replicate `starting`, fal `IN_QUEUE`), then while running. */
  queuedReads?: number;
  runningReads?: number;
  outcome?: 'succeeded' | 'failed' | 'never';
  /** HTTP statuses answered to the creation first (each once), before it is accepted. */
  createFailures?: number[];
  /** HTTP statuses answered to status reads first (each once). */
  readFailures?: number[];
  /** The result file answers this status (404: gone). */
  fileStatus?: number;
  /** Replicate: done within the creation when the client sent `Prefer: wait`. */
  doneWithinWait?: boolean;
  /** The job completes just before a cancel arrives (a cancel racing completion). */
  completesOnCancel?: boolean;
  /** Replicate: a creation with `Prefer: wait` is answered only after this long (the job exists meanwhile). */
  holdCreateMs?: number;
  /** Replicate: the job's outputs are base64 `data:` URIs, as sync mode answers for some models. */
  dataUriOutputs?: boolean;
  kind?: 'image' | 'video';
  /** The result files answer these bytes with this content-type instead of the stand-in's picture or film. */
  file?: { bytes: Buffer; contentType: string };
  /** Replicate: the job's outputs are these `data:` URIs. */
  dataUris?: string[];
  /** Replicate: what a failed prediction's `error` says (some APIs echo what they were sent). */
  failureText?: string;
}

interface Job {
  id: string;
  plan: Required<Omit<Plan, 'createFailures' | 'readFailures' | 'file' | 'dataUris' | 'failureText'>> &
    Pick<Plan, 'file' | 'dataUris' | 'failureText'> & { readFailures: number[] };
  reads: number;
  state: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
  count: number;
}

export interface HostedStandIn {
  url: string;
  replicateUrl: string;
  falUrl: string;
  plans: Plan[];
  /** Every request, as `METHOD path` with the auth header and body it carried. */
  requests: Array<{
    line: string;
    authorization: string | undefined;
    prefer: string | undefined;
    body: Record<string, unknown> | null;
  }>;
  cancels: string[];
  close(): Promise<void>;
}

export async function startHostedStandIn(): Promise<HostedStandIn> {
  const jobs = new Map<string, Job>();
  const plans: Plan[] = [];
  const requests: HostedStandIn['requests'] = [];
  const cancels: string[] = [];
  const pendingCreateFailures: number[] = [];
  let next = 0;
  let origin = '';

  const json = (res: ServerResponse, status: number, body: unknown): void => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };

  function newJob(count: number): Job {
    const plan = plans.shift() ?? {};
    next += 1;
    return {
      id: `job${next}`,
      plan: {
        queuedReads: plan.queuedReads ?? 1,
        runningReads: plan.runningReads ?? 1,
        outcome: plan.outcome ?? 'succeeded',
        fileStatus: plan.fileStatus ?? 200,
        doneWithinWait: plan.doneWithinWait ?? false,
        completesOnCancel: plan.completesOnCancel ?? false,
        holdCreateMs: plan.holdCreateMs ?? 0,
        dataUriOutputs: plan.dataUriOutputs ?? false,
        kind: plan.kind ?? 'image',
        readFailures: [...(plan.readFailures ?? [])],
        file: plan.file,
        dataUris: plan.dataUris,
        failureText: plan.failureText,
      },
      reads: 0,
      state: 'queued',
      count,
    };
  }

  /** The job one status read later: queued for `queuedReads` reads, running for `runningReads`, then its outcome. */
  function advance(job: Job): void {
    job.reads += 1;
    if (job.state === 'cancelled' || job.state === 'succeeded' || job.state === 'failed') return;
    if (job.reads <= job.plan.queuedReads) job.state = 'queued';
    else if (job.reads <= job.plan.queuedReads + job.plan.runningReads || job.plan.outcome === 'never')
      job.state = 'running';
    else job.state = job.plan.outcome === 'failed' ? 'failed' : 'succeeded';
  }

  const fileUrls = (job: Job) =>
    Array.from(
      { length: job.count },
      (_, index) => `${origin}/files/${job.id}-${index}.${job.plan.kind === 'video' ? 'mp4' : 'png'}`,
    );

  function replicatePrediction(job: Job) {
    const status = {
      queued: 'starting',
      running: 'processing',
      succeeded: 'succeeded',
      failed: 'failed',
      cancelled: 'canceled',
    }[job.state];
    return {
      id: job.id,
      status,
      model: 'stand/in',
      version: 'hidden',
      input: {},
      output:
        job.state !== 'succeeded'
          ? null
          : job.plan.dataUris
            ? job.plan.dataUris
            : job.plan.dataUriOutputs
              ? Array.from({ length: job.count }, () => `data:image/png;base64,${STANDIN_IMAGE.toString('base64')}`)
              : job.plan.kind === 'video'
                ? fileUrls(job)[0]
                : fileUrls(job),
      error: job.state === 'failed' ? (job.plan.failureText ?? 'NSFW content detected in the output') : null,
      logs: '',
      urls: {
        get: `${origin}/replicate/v1/predictions/${job.id}`,
        cancel: `${origin}/replicate/v1/predictions/${job.id}/cancel`,
      },
      created_at: new Date().toISOString(),
    };
  }

  function falStatus(job: Job) {
    if (job.state === 'queued')
      return {
        status: 'IN_QUEUE',
        request_id: job.id,
        queue_position: Math.max(job.plan.queuedReads - job.reads, 0) + 1,
      };
    if (job.state === 'running') return { status: 'IN_PROGRESS', request_id: job.id, logs: [] };
    return {
      status: 'COMPLETED',
      request_id: job.id,
      logs: [],
      ...(job.state === 'failed' ? { error: 'The model could not generate this prompt' } : {}),
    };
  }

  function cancel(job: Job): 'cancelled' | 'already_done' {
    cancels.push(job.id);
    if (job.plan.completesOnCancel && job.state !== 'cancelled') job.state = 'succeeded';
    if (job.state === 'succeeded' || job.state === 'failed') return 'already_done';
    job.state = 'cancelled';
    return 'cancelled';
  }

  async function handle(req: IncomingMessage, res: ServerResponse, text: string): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const body = text ? (JSON.parse(text) as Record<string, unknown>) : null;
    requests.push({
      line: `${req.method} ${path}`,
      authorization: req.headers.authorization,
      prefer: req.headers.prefer as string | undefined,
      body,
    });

    const file = /^\/files\/(job\d+)-\d+\.(png|mp4)$/.exec(path);
    if (file) {
      const job = jobs.get(file[1]!);
      if (!job || job.plan.fileStatus !== 200) return void res.writeHead(job?.plan.fileStatus ?? 404).end('gone');
      if (job.plan.file)
        return void res.writeHead(200, { 'content-type': job.plan.file.contentType }).end(job.plan.file.bytes);
      return void res
        .writeHead(200, { 'content-type': file[2] === 'mp4' ? 'video/mp4' : 'image/png' })
        .end(file[2] === 'mp4' ? STANDIN_VIDEO : STANDIN_IMAGE);
    }

    if (path.startsWith('/replicate/v1/')) {
      if (req.headers.authorization !== `Bearer ${REPLICATE_TOKEN}`)
        return json(res, 401, {
          title: 'Unauthenticated',
          detail: 'You did not pass a valid authentication token',
          status: 401,
        });
      const route = path.slice('/replicate/v1'.length);
      if (req.method === 'POST' && (/^\/models\/[^/]+\/[^/]+\/predictions$/.test(route) || route === '/predictions')) {
        if (pendingCreateFailures.length === 0 && plans[0]?.createFailures?.length)
          pendingCreateFailures.push(...plans[0].createFailures.splice(0));
        const failure = pendingCreateFailures.shift();
        if (failure)
          return json(res, failure, {
            title: 'Throttled',
            detail: failure === 429 ? 'Request was throttled.' : 'Internal server error',
            status: failure,
          });
        const input = (body?.input ?? {}) as { num_outputs?: number };
        const job = newJob(Number(input.num_outputs ?? 1));
        jobs.set(job.id, job);
        if (req.headers.prefer && job.plan.doneWithinWait)
          job.state = job.plan.outcome === 'failed' ? 'failed' : 'succeeded';
        if (req.headers.prefer && job.plan.holdCreateMs > 0) {
          await new Promise((resolve) => setTimeout(resolve, job.plan.holdCreateMs));
          if (res.destroyed) return;
        }
        return json(res, 201, replicatePrediction(job));
      }
      const read = /^\/predictions\/(job\d+)$/.exec(route);
      if (req.method === 'GET' && read) {
        const job = jobs.get(read[1]!);
        if (!job) return json(res, 404, { detail: 'Not found.' });
        const failure = job.plan.readFailures.shift();
        if (failure) return json(res, failure, { detail: 'Service unavailable' });
        advance(job);
        return json(res, 200, replicatePrediction(job));
      }
      const cancelled = /^\/predictions\/(job\d+)\/cancel$/.exec(route);
      if (req.method === 'POST' && cancelled) {
        const job = jobs.get(cancelled[1]!);
        if (!job) return json(res, 404, { detail: 'Not found.' });
        cancel(job);
        return json(res, 200, replicatePrediction(job));
      }
      return json(res, 404, { detail: 'Not found.' });
    }

    if (path.startsWith('/fal/')) {
      if (req.headers.authorization !== `Key ${FAL_KEY}`)
        return json(res, 401, { detail: 'No user found for Key ID and Secret' });
      const route = path.slice('/fal'.length);
      const status = /^\/[^/]+\/[^/]+\/requests\/(job\d+)\/status$/.exec(route);
      const result = /^\/[^/]+\/[^/]+\/requests\/(job\d+)$/.exec(route);
      const cancelled = /^\/[^/]+\/[^/]+\/requests\/(job\d+)\/cancel$/.exec(route);
      if (req.method === 'GET' && status) {
        const job = jobs.get(status[1]!);
        if (!job) return json(res, 404, { detail: 'Request not found' });
        const failure = job.plan.readFailures.shift();
        if (failure) return json(res, failure, { detail: 'Service unavailable' });
        advance(job);
        return json(res, 200, falStatus(job));
      }
      if (req.method === 'GET' && result) {
        const job = jobs.get(result[1]!);
        if (!job) return json(res, 404, { detail: 'Request not found' });
        if (job.state === 'failed') return json(res, 422, { detail: 'The model could not generate this prompt' });
        const urls = fileUrls(job);
        return json(
          res,
          200,
          job.plan.kind === 'video'
            ? { video: { url: urls[0], content_type: 'video/mp4' } }
            : { images: urls.map((url) => ({ url, content_type: 'image/png' })) },
        );
      }
      if (req.method === 'PUT' && cancelled) {
        const job = jobs.get(cancelled[1]!);
        if (!job) return json(res, 404, { detail: 'Request not found' });
        return cancel(job) === 'cancelled'
          ? json(res, 202, { status: 'CANCELLATION_REQUESTED' })
          : json(res, 400, { status: 'ALREADY_COMPLETED' });
      }
      if (req.method === 'POST' && /^\/[^/]+\/[^/]+(\/[^/]+)*$/.test(route)) {
        if (pendingCreateFailures.length === 0 && plans[0]?.createFailures?.length)
          pendingCreateFailures.push(...plans[0].createFailures.splice(0));
        const failure = pendingCreateFailures.shift();
        if (failure) return json(res, failure, { detail: 'Service temporarily unavailable' });
        const job = newJob(Number((body as { num_images?: number } | null)?.num_images ?? 1));
        jobs.set(job.id, job);
        const base = `${origin}/fal${route}/requests/${job.id}`;
        return json(res, 200, {
          request_id: job.id,
          status: 'IN_QUEUE',
          queue_position: job.plan.queuedReads + 1,
          response_url: base,
          status_url: `${base}/status`,
          cancel_url: `${base}/cancel`,
        });
      }
      return json(res, 404, { detail: 'Not found' });
    }
    res.writeHead(404).end();
  }

  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => void handle(req, res, text));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    replicateUrl: `${origin}/replicate/v1`,
    falUrl: `${origin}/fal`,
    plans,
    requests,
    cancels,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
