% SPDX-License-Identifier: Apache-2.0
function varargout = call(op, varargin)
% OPENIPT.CALL  Runs an operator of the catalogue by name.
%   [out1, out2, ...] = openipt.call('imgaussfilt', A, 'sigma', 2)
%   Positional values fill the operator's parameters in catalogue order
%   ([] keeps a default), then name-value pairs (catalogue names, case-
%   insensitive). The first max(1, nargout) outputs are returned; with an
%   openipt.gpuImage input they stay on the device. openipt.schema(op)
%   lists the parameters. Errors carry the identifier openipt:<status>.
args = varargin;
for k = 1:numel(args)
  if isa(args{k}, 'openipt.gpuImage')
    args{k} = args{k}.Handle;
  end
end
n = max(1, nargout);
varargout = cell(1, n);
[varargout{:}] = openipt_mex('call', op, args{:});
for k = 1:n
  if isstruct(varargout{k})
    varargout{k} = openipt.gpuImage(varargout{k});
  end
end
end
