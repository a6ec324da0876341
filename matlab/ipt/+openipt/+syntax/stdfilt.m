% SPDX-License-Identifier: Apache-2.0
function args = stdfilt(nout, in)
% stdfilt(I), stdfilt(I, nhood).
args = [];
if isempty(in) || numel(in) > 2 || nout > 1
  return;
end
args = {'I', in{1}};
if numel(in) == 2 && ~isempty(in{2})
  args(end+1:end+2) = {'nhood', logical(in{2})};
end
end
