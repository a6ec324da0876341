% SPDX-License-Identifier: Apache-2.0
function e = explain()
% OPENIPT.EXPLAIN  The dispatch record of the last call: operator, plugin,
% variant, device, run and transfer times, the reason, and the candidates.
e = openipt_mex('explain');
end
