% SPDX-License-Identifier: Apache-2.0
function id = device(spec)
% OPENIPT.DEVICE  Pins later calls to one device: an id, a kind ('cpu',
% 'cuda', 'vulkan': its first device), 'kind:N', a device name, or 'any' to
% let OpenIPT choose. Without an argument, returns the pinned id (-1: none).
if nargin == 0
  id = openipt_mex('device');
else
  id = openipt_mex('device', spec);
end
end
