% SPDX-License-Identifier: Apache-2.0
function args = imwarp(nout, in)
% imwarp(A, tform), then an interpolation method and the OutputView,
% FillValues and SmoothEdges name-value pairs, for a 2-D affine or
% projective tform object. The RB output, a spatial referencing object RA,
% a displacement field and any other transformation fall through.
args = [];
if numel(in) < 2 || nout > 1 || isempty(in{1})
  return;
end
T = tform_matrix(in{2});
if isempty(T)
  return;
end
args = {'A', in{1}, 'T', reshape(T.', 1, [])};
rest = in(3:end);
if mod(numel(rest), 2) == 1
  m = rest{1};
  if isa(m, 'string') && isscalar(m)
    m = char(m);
  end
  if ~ischar(m) || ~any(strcmpi(m, {'nearest', 'linear', 'cubic'}))
    args = [];
    return;
  end
  args(end+1:end+2) = {'interp', lower(m)};
  rest = rest(2:end);
end
[nv, ok] = openipt.syntax.name_values(rest, {'OutputView', 'FillValues', 'SmoothEdges'});
if ~ok
  args = [];
  return;
end
for k = 1:2:numel(nv)
  v = nv{k+1};
  switch nv{k}
    case 'OutputView'
      if ~isa(v, 'imref2d') || ~isscalar(v)
        args = [];
        return;
      end
      sz = double(v.ImageSize);
      v = [sz(1:2), double(v.XWorldLimits(:)'), double(v.YWorldLimits(:)')];
    case 'FillValues'
      if ~isnumeric(v) || isempty(v) || ~isreal(v)
        args = [];
        return;
      end
      v = double(v(:)');
    case 'SmoothEdges'
      if ~(islogical(v) || isnumeric(v)) || ~isscalar(v) || ~any(v == [0 1])
        args = [];
        return;
      end
      v = double(logical(v));
  end
  args(end+1:end+2) = {nv{k}, v};
end
end

function T = tform_matrix(t)
% The 3x3 matrix of a 2-D affine or projective transformation object in the
% row-vector convention ([x y w] = [u v 1] * T), or [] for anything else.
T = [];
if ~isobject(t) || ~isscalar(t)
  return;
end
if isa(t, 'affine2d') || isa(t, 'projective2d') || isa(t, 'rigid2d')
  T = double(t.T);
elseif isa(t, 'affinetform2d') || isa(t, 'projtform2d') || isa(t, 'rigidtform2d') ...
    || isa(t, 'simtform2d') || isa(t, 'transltform2d')
  % The premultiply convention: [x; y; w] = A * [u; v; 1].
  T = double(t.A).';
end
if ~isequal(size(T), [3 3])
  T = [];
end
end
