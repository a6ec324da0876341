% SPDX-License-Identifier: Apache-2.0
function d = devices()
% OPENIPT.DEVICES  The devices OpenIPT found: a struct array (id, name,
% kind, vendor, plugin, identity, memory_bytes, compute_units). Id 0 is the host.
d = openipt_mex('devices');
end
