% SPDX-License-Identifier: Apache-2.0
function i = info()
% OPENIPT.INFO  ABI and API versions, the load report of every plugin,
% the devices and the pinned device (-1: none).
i = openipt_mex('info');
end
