import { censusHost } from '../../../api/boundaries/live-probes.ts';
import { knowledgeRun, type RunOptions } from '../../../api/organism/checks/knowledge.ts';
import type { TestApp } from '../../helpers/app.ts';

/**
 * One run of the verification job, as the runner calls it (organism.vigilance): what the
 * self-trials, truth, vigilance, promises and the organism read afterwards is what it kept.
 */
export const verifyNow = (t: TestApp, options: RunOptions = {}) =>
  knowledgeRun(t.app.civitas, censusHost(t.app), options);
