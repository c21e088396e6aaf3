// The cron's sweeps in one module, imported by the cron's first run rather than at startup.
export { sweepExpiredAccounts } from '../jobs/account-expiry';
export { sweepHumanRecords } from './human-records';
export { sweepStorage } from './storage-sweep';
export { sweepExpiredUploads } from './upload-expiry';
export { sweepMediaJobs } from '../jobs/render-jobs';
export { sweepVideoJobs } from '../jobs/video-jobs';
