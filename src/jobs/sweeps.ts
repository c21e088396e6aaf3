// The cron's sweeps in one module, imported by the cron's first run rather than at startup.
export { sweepExpiredAccounts } from './account-expiry';
export { sweepHumanRecords } from './human-records';
export { sweepStorage } from './storage-sweep';
export { sweepExpiredUploads } from './upload-expiry';
export { sweepMediaJobs } from '../media/jobs';
export { sweepVideoJobs } from '../media/videos/job';
