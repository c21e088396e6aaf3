import journal from './meta/_journal.json';
import m0000 from './0000_init.sql';
import m0001 from './0001_open_holds_only.sql';
import m0002 from './0002_hold_leases.sql';
import m0003 from './0003_fund_link.sql';
import m0004 from './0004_auto_top_up.sql';
import m0005 from './0005_holds_without_rowid.sql';
import m0006 from './0006_suspension.sql';
import m0007 from './0007_human_claim.sql';
import m0008 from './0008_sub_keys.sql';
import m0009 from './0009_request_records.sql';
import m0010 from './0010_organizations.sql';
import m0011 from './0011_organization_owners.sql';
import m0012 from './0012_org_key_spend.sql';
import m0013 from './0013_org_pool_holds.sql';
import m0014 from './0014_request_record_key.sql';
import m0015 from './0015_reclaim_and_invite_uses.sql';

  export default {
    journal,
    migrations: {
      m0000,
m0001,
m0002,
m0003,
m0004,
m0005,
m0006,
m0007,
m0008,
m0009,
m0010,
m0011,
m0012,
m0013,
m0014,
m0015
    }
  }
  