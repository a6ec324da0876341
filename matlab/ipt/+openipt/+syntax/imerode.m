% SPDX-License-Identifier: Apache-2.0
function args = imerode(nout, in)
% imerode(A, SE), imerode(A, SE, 'same'): see morphology.m.
args = openipt.syntax.morphology(nout, in);
end
