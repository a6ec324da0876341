% SPDX-License-Identifier: Apache-2.0
function out = ipt_run(op, nout, args)
% Calls operator OP through the gateway with the argument list ARGS
% (positional, then name-value); NOUT outputs in a cell. openipt.gpuImage
% inputs go as handles, and the outputs of such a call stay on the device.
for k = 1:numel(args)
  if isa(args{k}, 'openipt.gpuImage')
    args{k} = args{k}.Handle;
  end
end
out = cell(1, nout);
[out{:}] = openipt_mex('call', op, args{:});
for k = 1:nout
  if isstruct(out{k})
    out{k} = openipt.gpuImage(out{k});
  end
end
end
