import { getCalibration } from './tools/get-calibration.ts';

/** The family's MCP tools, one file each in ./tools/. */
export const calibrationTools = [getCalibration];
