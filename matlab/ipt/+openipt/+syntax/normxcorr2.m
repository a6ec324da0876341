% SPDX-License-Identifier: Apache-2.0
function args = normxcorr2(nout, in)
% normxcorr2(template, A).
args = openipt.syntax.positional(in, {'template', 'A'}, nout, 1);
end
