% SPDX-License-Identifier: Apache-2.0
function args = stretchlim(nout, in)
% stretchlim(I), stretchlim(I, tol).
args = openipt.syntax.positional(in, {'I', 'tol'}, nout, 1);
end
