% SPDX-License-Identifier: Apache-2.0
function args = local_filter(nout, in)
% entropyfilt, rangefilt and stdfilt: (I), (I, nhood).
args = [];
if isempty(in) || numel(in) > 2 || nout > 1
  return;
end
args = {'I', in{1}};
if numel(in) == 2 && ~isempty(in{2})
  args(end+1:end+2) = {'nhood', logical(in{2})};
end
end
